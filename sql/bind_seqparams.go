package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// seqParams are a sequence's parameters after CREATE or ALTER SEQUENCE's
// options: restart is RESTART's value (nil: none), ownedBy OWNED BY's
// table and column ([] for OWNED BY NONE, nil when not given).
type seqParams struct {
	def     catalog.Sequence
	restart *int64
	ownedBy []string
	owned   bool // OWNED BY was given
}

// seqParams applies sequence options as PostgreSQL's init_params does,
// to the defaults (old == nil, CREATE SEQUENCE) or to an existing
// sequence's parameters (ALTER SEQUENCE): AS bounds MINVALUE and MAXVALUE
// (and moves the bounds that were its old type's defaults), NO MINVALUE and
// NO MAXVALUE go back to the defaults for the increment's sign, START sets
// where RESTART without a value goes; the checks are PostgreSQL's.
func (b *binder) seqParams(old *catalog.Sequence, opts []*pg_query.Node) (*seqParams, error) {
	init := old == nil
	p := &seqParams{def: catalog.Sequence{TypeOID: uint32(types.Int8), Increment: 1, Cache: 1}}
	if !init {
		p.def = *old
	}
	def := &p.def
	var minSet, maxSet, startSet, resetMin, resetMax bool
	var minV, maxV, startV int64
	oldType := def.TypeOID
	seen := map[string]bool{}
	for _, n := range opts {
		d := n.GetDefElem()
		if seen[d.Defname] {
			return nil, b.errAt(d.Location, pgerr.SyntaxError, "conflicting or redundant options")
		}
		seen[d.Defname] = true
		num := func() (int64, error) {
			v := defElemValue(d)
			i, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return 0, b.errAt(d.Location, pgerr.SyntaxError, "%s requires a numeric value", d.Defname)
			}
			return i, nil
		}
		var err error
		switch d.Defname {
		case "as":
			t, terr := b.typeName(d.Arg.GetTypeName())
			if terr != nil {
				return nil, terr
			}
			switch t.OID {
			case types.Int2, types.Int4, types.Int8:
				def.TypeOID = uint32(t.OID)
			default:
				return nil, pgerr.New(pgerr.InvalidParameterValue, "sequence type must be smallint, integer, or bigint")
			}
		case "increment":
			def.Increment, err = num()
		case "minvalue":
			if d.Arg != nil {
				minV, err = num()
				minSet = true
			} else {
				resetMin = true
			}
		case "maxvalue":
			if d.Arg != nil {
				maxV, err = num()
				maxSet = true
			} else {
				resetMax = true
			}
		case "start":
			startV, err = num()
			startSet = true
		case "restart":
			v := def.Start // RESTART alone goes back to START (the new one, below)
			if d.Arg != nil {
				if v, err = num(); err != nil {
					return nil, err
				}
			}
			p.restart = &v
		case "cache":
			def.Cache, err = num()
		case "cycle":
			def.Cycle = defElemValue(d) == "true"
		case "owned_by":
			var parts []string
			for _, it := range d.Arg.GetList().GetItems() {
				parts = append(parts, it.GetString_().GetSval())
			}
			p.owned = true
			switch {
			case len(parts) == 1 && parts[0] == "none":
				p.ownedBy = []string{}
			case len(parts) == 1:
				return nil, pgerr.New(pgerr.SyntaxError, "invalid OWNED BY option").
					WithHint("Specify OWNED BY table.column or OWNED BY NONE.")
			case len(parts) == 3 && parts[0] == "public":
				p.ownedBy = parts[1:]
			case len(parts) == 2:
				p.ownedBy = parts
			default:
				return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", strings.Join(parts[:len(parts)-1], "."))
			}
		default:
			what := "CREATE SEQUENCE"
			if !init {
				what = "ALTER SEQUENCE"
			}
			return nil, pgerr.New(pgerr.FeatureNotSupported, "%s option %s is not supported", what, d.Defname)
		}
		if err != nil {
			return nil, err
		}
	}
	if def.Increment == 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "INCREMENT must not be zero")
	}
	lo, hi := catalog.SeqTypeBounds(def.TypeOID)
	if !init && def.TypeOID != oldType {
		// Bounds that were the old type's defaults follow the new type.
		oldLo, oldHi := catalog.SeqTypeBounds(oldType)
		if def.Increment > 0 && def.MaxValue == oldHi || def.Increment < 0 && def.MaxValue == -1 {
			resetMax = true
		}
		if def.Increment > 0 && def.MinValue == 1 || def.Increment < 0 && def.MinValue == oldLo {
			resetMin = true
		}
	}
	typeName := map[uint32]string{uint32(types.Int2): "smallint", uint32(types.Int4): "integer", uint32(types.Int8): "bigint"}[def.TypeOID]
	switch {
	case maxSet:
		def.MaxValue = maxV
		if maxV < lo || maxV > hi {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "MAXVALUE (%d) is out of range for sequence data type %s", maxV, typeName)
		}
	case init || resetMax:
		def.MaxValue = -1
		if def.Increment > 0 {
			def.MaxValue = hi
		}
	}
	switch {
	case minSet:
		def.MinValue = minV
		if minV < lo || minV > hi {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) is out of range for sequence data type %s", minV, typeName)
		}
	case init || resetMin:
		def.MinValue = lo
		if def.Increment > 0 {
			def.MinValue = 1
		}
	}
	if def.MinValue >= def.MaxValue {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) must be less than MAXVALUE (%d)", def.MinValue, def.MaxValue)
	}
	switch {
	case startSet:
		def.Start = startV
	case !init:
	case def.Increment > 0:
		def.Start = def.MinValue
	default:
		def.Start = def.MaxValue
	}
	if def.Start < def.MinValue {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be less than MINVALUE (%d)", def.Start, def.MinValue)
	}
	if def.Start > def.MaxValue {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be greater than MAXVALUE (%d)", def.Start, def.MaxValue)
	}
	if p.restart != nil && seen["restart"] && !hasArg(opts, "restart") {
		v := def.Start
		p.restart = &v
	}
	if def.Cache <= 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "CACHE (%d) must be greater than zero", def.Cache)
	}
	return p, nil
}

// hasArg reports whether option name is given with a value.
func hasArg(opts []*pg_query.Node, name string) bool {
	for _, n := range opts {
		if d := n.GetDefElem(); d.Defname == name {
			return d.Arg != nil
		}
	}
	return false
}

// AlterSequence is a bound ALTER SEQUENCE: the sequence's new parameters,
// RESTART's value (nil: none) and OWNED BY (nil: not given, [] for NONE).
// The executor stores them; the sequence's current value is checked
// against the new bounds there.
type AlterSequence struct {
	OID     uint32
	Def     catalog.Sequence
	Restart *int64
	OwnedBy []string
	Missing string // ALTER SEQUENCE IF EXISTS of a sequence that does not exist: its name
}

func (*AlterSequence) stmt() {}

func (b *binder) alterSequence(s *pg_query.AlterSeqStmt) (*AlterSequence, error) {
	rv := s.Sequence
	if sc := rv.Schemaname; sc != "" && sc != "public" {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", sc, rv.Relname)
	}
	sc, _ := b.cat.(SequenceCatalog)
	var old *catalog.Sequence
	if sc != nil {
		old, _ = sc.Sequence(rv.Relname)
	}
	if old == nil {
		if s.MissingOk {
			return &AlterSequence{Missing: rv.Relname}, nil
		}
		if _, isTable := b.cat.Table(rv.Relname); isTable {
			return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", rv.Relname)
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", rv.Relname)
	}
	if s.ForIdentity {
		return nil, pgerr.Unimplemented("ALTER SEQUENCE of an identity column's sequence")
	}
	p, err := b.seqParams(old, s.Options)
	if err != nil {
		return nil, err
	}
	out := &AlterSequence{OID: old.OID, Def: p.def, Restart: p.restart}
	if p.owned {
		out.OwnedBy = p.ownedBy
	}
	return out, nil
}
