// Package reloptions is the one table of storage parameters and the server
// settings that go with them, in the spirit of PostgreSQL's
// src/backend/access/common/reloptions.c: each parameter is declared once,
// by the subsystem that reads it, with its name, type, range and default,
// and everything else comes from that declaration:
//
//   - CREATE TABLE ... WITH (...) and ALTER TABLE ... SET/RESET (...)
//     accept exactly the parameters declared with Table set, and validate
//     them with CheckReloption (PostgreSQL 15's reloption errors);
//   - the server's settings (-c name=value, SHOW, SET) include every
//     parameter declared with a Setting context, validated by
//     Param.ParseSetting (PostgreSQL 15's GUC errors);
//   - the subsystem reads the value in force for a table with the typed
//     getters (Param.Int, Param.Real, Param.Bool, Param.Get) from a
//     Source that layers the table's options over the server's settings
//     over the default.
//
// This package imports nothing of minipg but pgerr, so that storage
// packages may declare their parameters here and sql and executor may read
// the table without importing storage.
//
// # Declaring a parameter
//
// Declare it in a package-level variable of the package that reads it, so
// that it is registered when that package is initialized:
//
//	var vacuumThreshold = reloptions.Declare(reloptions.Param{
//		Name:    "autovacuum_vacuum_threshold",
//		Kind:    reloptions.Int,
//		Desc:    "minimum number of updated or deleted tuples before vacuum",
//		Default: "50",
//		Min:     0, Max: math.MaxInt32,
//		Table:   true,               // WITH (...), ALTER TABLE SET/RESET
//		Setting: reloptions.Sighup,  // -c and SHOW; SET refuses it
//	})
//
//	// where the value is needed (table options win over the server's):
//	n := vacuumThreshold.Int(reloptions.Layers(t.Options, settings))
//
// An enum parameter lists its values through a function (Values), so that
// the set may be a registry that grows, as fsm_policy's does. A parameter
// that is only a server setting leaves Table false; one that is only a
// storage parameter leaves Setting at NoSetting. Time settings name their
// base unit (Unit "ms", "s" or "min"), and memory settings theirs ("kB",
// "8kB" for blocks, "MB"): -c and SET then accept any unit of the kind,
// and SHOW prints the largest unit that divides the value, as PostgreSQL
// does; storage parameters take plain numbers in the base unit. Category
// is the group pg_settings shows the setting in.
//
// Declare panics on a duplicate name or an inconsistent declaration (a
// programming error). Values are kept as canonical strings (integers in
// decimal, reals in shortest form, booleans "on"/"off", enum values as
// declared), which is what the catalog stores and SHOW prints.
package reloptions
