package executor

import (
	"minipg/sql"
	"minipg/types"
)

// The integer bitwise operators, by PostgreSQL's function names (the
// operators &, |, #, <<, >> and prefix ~ resolve to them,
// sql.operatorFuncs): and, or and xor of two operands of one integer type;
// shifts of an integer by an int4 count, which, as in PostgreSQL's C,
// wrap instead of overflowing and take the count modulo the type's width
// (as the hardware does); not.
func init() {
	imm := sql.Immutable
	for _, t := range []types.OID{i2, i4, i8} {
		name := map[types.OID]string{i2: "int2", i4: "int4", i8: "int8"}[t]
		bin := func(op string, f func(x, y int64) int64) {
			builtin(name+op, oids(t, t), t, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
				return f(a[0].(int64), a[1].(int64)), nil
			})
		}
		bin("and", func(x, y int64) int64 { return x & y })
		bin("or", func(x, y int64) int64 { return x | y })
		bin("xor", func(x, y int64) int64 { return x ^ y })
		shift := func(op string, f func(x int64, n uint) int64) {
			builtin(name+op, oids(t, i4), t, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
				return f(a[0].(int64), uint(a[1].(int64))), nil
			})
		}
		switch t {
		case i2:
			// int2 is shifted as a C int, then narrowed.
			shift("shl", func(x int64, n uint) int64 { return int64(int16(int32(x) << (n & 31))) })
			shift("shr", func(x int64, n uint) int64 { return int64(int16(int32(x) >> (n & 31))) })
		case i4:
			shift("shl", func(x int64, n uint) int64 { return int64(int32(x) << (n & 31)) })
			shift("shr", func(x int64, n uint) int64 { return int64(int32(x) >> (n & 31)) })
		case i8:
			shift("shl", func(x int64, n uint) int64 { return x << (n & 63) })
			shift("shr", func(x int64, n uint) int64 { return x >> (n & 63) })
		}
		builtin(name+"not", oids(t), t, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			return ^a[0].(int64), nil
		})
	}
}
