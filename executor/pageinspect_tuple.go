package executor

// pageinspect's functions that return arrays:
//
//	heap_page_item_attrs(page bytea, rel_oid regclass[, do_detoast bool])
//	    -> SETOF heap_page_items' columns with t_attrs bytea[] for t_data
//	tuple_data_split(rel_oid oid, t_data bytea, t_infomask integer,
//	    t_infomask2 integer, t_bits text[, do_detoast boolean]) bytea[]
//	heap_tuple_infomask_flags(t_infomask integer, t_infomask2 integer)
//	    -> raw_flags text[], combined_flags text[]
//
// As elsewhere in minipg a regclass argument is the relation's name
// ('t'::regclass is taken as 't'); tuple_data_split also takes a table's
// OID. minipg stores no TOAST, so do_detoast changes nothing.

import (
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/pageinspect"
	"minipg/types"
)

// tupleAttrs is the attribute layout of a table for tuple_data_split.
func tupleAttrs(r *relation) []pageinspect.Attr {
	attrs := make([]pageinspect.Attr, len(r.def.Columns))
	for i, c := range r.def.Columns {
		oid := types.OID(c.TypeOID)
		attrs[i] = pageinspect.Attr{Len: types.TypLen(oid), Align: types.TypAlign(oid)}
	}
	return attrs
}

// tupleDataSplit is tuple_data_split once the relation is known; a NULL
// t_data gives NULL before the relation is looked at, as in PostgreSQL.
func tupleDataSplit(rel func() (*relation, error), data, infomask, infomask2, bits, detoast types.Datum) (types.Datum, error) {
	if data == nil {
		return nil, nil
	}
	im, im2 := uint16(0), uint16(0)
	if infomask != nil {
		im = uint16(infomask.(int64))
	}
	if infomask2 != nil {
		im2 = uint16(infomask2.(int64))
	}
	var bitmap []byte
	if im&0x0001 != 0 {
		if bits == nil {
			return nil, pgerr.New(pgerr.DataCorrupted, "t_bits string must not be NULL")
		}
		var err error
		if bitmap, err = pageinspect.TextToBits(bits.(string), int(im2&0x07FF)); err != nil {
			return nil, err
		}
	} else if bits != nil {
		return nil, pgerr.New(pgerr.DataCorrupted, "t_bits string is expected to be NULL, but instead it is %d bytes long", len(bits.(string)))
	}
	r, err := rel()
	if err != nil {
		return nil, err
	}
	vals, err := pageinspect.TupleDataSplit(data.([]byte), im, im2, bitmap, tupleAttrs(r), detoast == types.Datum(true))
	if err != nil {
		return nil, err
	}
	elems := make([]types.Datum, len(vals))
	for i, v := range vals {
		if v != nil {
			elems[i] = v
		}
	}
	return types.NewArray(elems), nil
}

func init() {
	const ext = "pageinspect"
	byteaArray := types.T{OID: types.ArrayOID(types.Bytea), Typmod: -1}
	textArray := types.T{OID: types.ArrayOID(types.Text), Typmod: -1}
	byName := func(env any, name types.Datum) func() (*relation, error) {
		return func() (*relation, error) {
			if name == nil {
				return nil, pgerr.New(pgerr.InternalError, "could not open relation with OID 0")
			}
			return session(env).e.relationForInspection(name.(string), "cannot get tuple data from relation")
		}
	}
	byOID := func(env any, oid types.Datum) func() (*relation, error) {
		return func() (*relation, error) {
			var id uint32
			if oid != nil {
				id = uint32(oid.(int64))
			}
			e := session(env).e
			if _, ok := e.cat.TableByOID(id); !ok {
				return nil, pgerr.New(pgerr.InternalError, "could not open relation with OID %d", id)
			}
			return e.rel(id)
		}
	}
	for _, relArg := range []types.OID{types.Oid, types.Text} {
		relArg := relArg
		for _, withDetoast := range []bool{false, true} {
			args := oids(relArg, types.Bytea, types.Int4, types.Int4, types.Text)
			if withDetoast {
				args = append(args, types.Bool)
			}
			sql.RegisterBuiltin(sql.Builtin{Name: "tuple_data_split", Args: args, Result: byteaArray.OID,
				Volatility: sql.Volatile, Strict: false, Extension: ext,
				Fn: func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
					rel := byOID(env, a[0])
					if relArg == types.Text {
						rel = byName(env, a[0])
					}
					var detoast types.Datum = false
					if len(a) > 5 {
						detoast = a[5]
					}
					return tupleDataSplit(rel, a[1], a[2], a[3], a[4], detoast)
				}})
		}
	}
	col := func(name string, t types.T) sql.TableFuncCol { return sql.TableFuncCol{Name: name, T: t} }
	sql.RegisterTableFunction(sql.TableFunction{Name: "heap_tuple_infomask_flags", Args: oids(types.Int4, types.Int4), Extension: ext,
		Cols: []sql.TableFuncCol{col("raw_flags", textArray), col("combined_flags", textArray)},
		Fn: func(_ any, args []types.Datum) ([][]types.Datum, error) {
			if args[0] == nil || args[1] == nil {
				// STRICT and not SETOF: a NULL argument gives a NULL row.
				return [][]types.Datum{{nil, nil}}, nil
			}
			raw, combined := pageinspect.InfomaskFlags(uint16(args[0].(int64)), uint16(args[1].(int64)))
			toArr := func(names []string) *types.Array {
				elems := make([]types.Datum, len(names))
				for i, n := range names {
					elems[i] = n
				}
				return types.NewArray(elems)
			}
			return [][]types.Datum{{toArr(raw), toArr(combined)}}, nil
		}})
	sql.RegisterTableFunction(sql.TableFunction{Name: "heap_page_item_attrs", Args: oids(types.Bytea, types.Text, types.Bool),
		Defaults: []types.Datum{false}, Strict: true, Extension: ext,
		Cols: []sql.TableFuncCol{col("lp", types.TInt2), col("lp_off", types.TInt2), col("lp_flags", types.TInt2),
			col("lp_len", types.TInt2), col("t_xmin", types.TXid), col("t_xmax", types.TXid), col("t_field3", types.TInt4),
			col("t_ctid", types.TTID), col("t_infomask2", types.TInt4), col("t_infomask", types.TInt4),
			col("t_hoff", types.TInt2), col("t_bits", types.TText), col("t_oid", types.TOid), col("t_attrs", byteaArray)},
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			rows, err := heapPageItemRows(args[0].([]byte))
			if err != nil {
				return nil, err
			}
			rel := byName(env, args[1])
			for _, row := range rows {
				attrs, err := tupleDataSplit(rel, row[13], row[9], row[8], row[11], args[2])
				if err != nil {
					return nil, err
				}
				row[13] = attrs
			}
			return rows, nil
		}})
}
