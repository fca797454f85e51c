package types

import (
	"strconv"
	"strings"

	"minipg/pgerr"
)

// Limits from PostgreSQL.
const (
	NumericMaxPrecision = 1000     // NUMERIC_MAX_PRECISION
	NumericMinScale     = -1000    // NUMERIC_MIN_SCALE
	NumericMaxScale     = 1000     // NUMERIC_MAX_SCALE
	MaxCharLen          = 10485760 // MaxAttrSize: longest varchar(n)/char(n)
	MaxTimestampPrec    = 6        // MAX_TIMESTAMP_PRECISION
)

// TypName is pg_type.typname of oid ("int4", "varchar", ...).
func TypName(oid OID) string {
	if n, ok := extTypName(oid); ok {
		return n
	}
	switch oid {
	case Bool:
		return "bool"
	case Int8:
		return "int8"
	case Int2:
		return "int2"
	case Int4:
		return "int4"
	case Text:
		return "text"
	case TID:
		return "tid"
	case Float4:
		return "float4"
	case Float8:
		return "float8"
	case Unknown:
		return "unknown"
	case Bpchar:
		return "bpchar"
	case Varchar:
		return "varchar"
	case Date:
		return "date"
	case Timestamp:
		return "timestamp"
	case TimestampTZ:
		return "timestamptz"
	case Interval:
		return "interval"
	case Numeric:
		return "numeric"
	case Void:
		return "void"
	case Bytea:
		return "bytea"
	case Oid:
		return "oid"
	case Xid:
		return "xid"
	case Cid:
		return "cid"
	case PgLSN:
		return "pg_lsn"
	}
	return "oid" + strconv.FormatUint(uint64(oid), 10)
}

// Name returns the type as PostgreSQL's format_type prints it, e.g.
// "integer", "character varying(10)", "numeric(12,2)", "bpchar" (char
// without length), "timestamp(3) without time zone".
func (t T) Name() string {
	if n, ok := extName(t); ok {
		return n
	}
	switch t.OID {
	case Bool:
		return "boolean"
	case Int2:
		return "smallint"
	case Int4:
		return "integer"
	case Int8:
		return "bigint"
	case Float4:
		return "real"
	case Float8:
		return "double precision"
	case Numeric:
		if p, s, ok := t.NumericPrecScale(); ok {
			return "numeric(" + strconv.Itoa(p) + "," + strconv.Itoa(s) + ")"
		}
		return "numeric"
	case Varchar:
		if n, ok := t.CharLen(); ok {
			return "character varying(" + strconv.Itoa(n) + ")"
		}
		return "character varying"
	case Bpchar:
		if n, ok := t.CharLen(); ok {
			return "character(" + strconv.Itoa(n) + ")"
		}
		return "bpchar"
	case Timestamp:
		if t.Typmod >= 0 {
			return "timestamp(" + strconv.Itoa(int(t.Typmod)) + ") without time zone"
		}
		return "timestamp without time zone"
	case TimestampTZ:
		if t.Typmod >= 0 {
			return "timestamp(" + strconv.Itoa(int(t.Typmod)) + ") with time zone"
		}
		return "timestamp with time zone"
	case Interval:
		return intervalName(t)
	}
	return TypName(t.OID)
}

// String is Name.
func (t T) String() string { return t.Name() }

// typeAliases maps the names the parser hands over (pg_catalog.int4 from the
// grammar's INTEGER, plain "int4" typed by the user) and the SQL spellings
// to an oid.
var typeAliases = map[string]OID{
	"bool": Bool, "boolean": Bool,
	"int2": Int2, "smallint": Int2,
	"int4": Int4, "int": Int4, "integer": Int4,
	"int8": Int8, "bigint": Int8,
	"float4": Float4, "real": Float4,
	"float8": Float8, "double precision": Float8, "float": Float8,
	"numeric": Numeric, "decimal": Numeric, "dec": Numeric,
	"text":    Text,
	"varchar": Varchar, "character varying": Varchar, "char varying": Varchar,
	"bpchar": Bpchar, "character": Bpchar, "char": Bpchar,
	"timestamp": Timestamp, "timestamp without time zone": Timestamp,
	"date":    Date,
	"tid":     TID,
	"unknown": Unknown,
	"void":    Void,
	"bytea":   Bytea, "oid": Oid, "xid": Xid, "cid": Cid, "pg_lsn": PgLSN,
	"timestamptz": TimestampTZ, "timestamp with time zone": TimestampTZ,
	"interval": Interval,
	"name":     Name, "regclass": RegClass, "regtype": RegType,
	"regnamespace": RegNamespace, "regrole": RegRole, "regproc": RegProc,
	"time": Time, "time without time zone": Time, "timetz": TimeTZ, "time with time zone": TimeTZ,
}

// TypeByName resolves a type name as pg_query_go gives it (the last element of
// the TypeName's names, e.g. "int4", "varchar", "bpchar", "numeric"; a
// leading "pg_catalog." is ignored; SQL spellings such as "integer",
// "decimal", "character varying" are accepted too) with its modifiers.
// Errors as PostgreSQL's typenameTypeMod and the typmodin functions:
// 42704 unknown type, 42601 modifier not allowed, 22023 bad modifier.
// The grammar already turns CHAR without length into bpchar with mods [1];
// "character"/"char" given here without mods mean char(1) as well.
func TypeByName(name string, mods []int32) (T, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "pg_catalog.")
	oid, ok := typeAliases[n]
	if !ok && unsupportedTypes[n] {
		return T{}, pgerr.Unimplemented("type " + n)
	}
	if !ok {
		return T{}, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
	}
	if len(mods) == 0 {
		if oid == Bpchar && (n == "character" || n == "char") {
			return BpcharT(1), nil
		}
		return T{oid, -1}, nil
	}
	switch oid {
	case Numeric:
		return numericTypmodIn(mods)
	case Varchar, Bpchar:
		tn := "varchar"
		if oid == Bpchar {
			tn = "char"
		}
		if len(mods) != 1 {
			return T{}, pgerr.New(pgerr.InvalidParameterValue, "invalid type modifier")
		}
		if mods[0] < 1 {
			return T{}, pgerr.New(pgerr.InvalidParameterValue, "length for type %s must be at least 1", tn)
		}
		if mods[0] > MaxCharLen {
			return T{}, pgerr.New(pgerr.InvalidParameterValue, "length for type %s cannot exceed %d", tn, MaxCharLen)
		}
		return T{oid, mods[0] + VarHdrSz}, nil
	case Timestamp, TimestampTZ:
		if len(mods) != 1 {
			return T{}, pgerr.New(pgerr.InvalidParameterValue, "invalid type modifier")
		}
		if mods[0] < 0 {
			if oid == TimestampTZ {
				return T{}, pgerr.New(pgerr.InvalidParameterValue, "TIMESTAMP(%d) WITH TIME ZONE precision must not be negative", mods[0])
			}
			return T{}, pgerr.New(pgerr.InvalidParameterValue, "TIMESTAMP(%d) precision must not be negative", mods[0])
		}
		p := mods[0]
		if p > MaxTimestampPrec {
			// PostgreSQL warns "TIMESTAMP(%d) precision reduced to maximum
			// allowed, 6" and goes on.
			p = MaxTimestampPrec
		}
		return T{oid, p}, nil
	case Interval:
		return intervalTypmodIn(mods)
	case Time, TimeTZ:
		return timeTypmodIn(oid, mods)
	case Float4, Float8:
		// float(p) is resolved by the grammar; a modifier here is an error.
	}
	return T{}, pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", TypName(oid))
}

// unsupportedTypes are PostgreSQL types minipg does not implement; naming
// one is 0A000 rather than "does not exist".
var unsupportedTypes = map[string]bool{
	"json": true, "jsonb": true, "uuid": true, "money": true,
	"name": true, "xml": true, "inet": true, "cidr": true, "macaddr": true, "bit": true,
	"varbit": true, "bit varying": true, "point": true, "serial": true, "serial4": true,
	"bigserial": true, "serial8": true, "smallserial": true, "serial2": true, "regclass": true,
	"tsvector": true, "tsquery": true, "int4range": true, "record": true, "jsonpath": true,
}

func numericTypmodIn(mods []int32) (T, error) {
	var p, s int32
	switch len(mods) {
	case 1:
		p = mods[0]
	case 2:
		p, s = mods[0], mods[1]
	default:
		return T{}, pgerr.New(pgerr.InvalidParameterValue, "invalid NUMERIC type modifier")
	}
	if p < 1 || p > NumericMaxPrecision {
		return T{}, pgerr.New(pgerr.InvalidParameterValue, "NUMERIC precision %d must be between 1 and %d", p, NumericMaxPrecision)
	}
	if s < NumericMinScale || s > NumericMaxScale {
		return T{}, pgerr.New(pgerr.InvalidParameterValue, "NUMERIC scale %d must be between %d and %d", s, NumericMinScale, NumericMaxScale)
	}
	return NumericT(int(p), int(s)), nil
}
