// Package types is minipg's type system: PostgreSQL 15's built-in types that
// minipg supports, their OIDs and typmods, their Go representation (Datum),
// text and binary I/O (typinput/typoutput, typreceive/typsend), their on-disk
// bytes inside a heap tuple, comparison, casts and arithmetic.
//
// Datum representation (nil is SQL NULL):
//
//	bool                          bool
//	int2, int4, int8              int64
//	float4, float8                float64 (float4 values are exact float32s)
//	numeric                       *apd.Decimal (never mutated once built)
//	text, varchar, bpchar         string (bpchar is stored blank-padded)
//	timestamp, date               time.Time in UTC (date at midnight)
//	timestamptz                   time.Time in UTC: the instant (shown in a TimeZone)
//	interval                      IntervalValue{Months, Days, Micros}
//	time                          TimeValue (µs since midnight)
//	timetz                        TimeTZValue{Micros, Zone} (zone in seconds west of UTC)
//	tid                           page.TID
//	point                         PointValue
//	json                          string (the text as written)
//	jsonb                         *JsonValue
//	arrays (int4[], text[], ...)  *Array
//	unknown                       string
//
// The package owns no state and is safe for concurrent use.
//
// # Files
//
//	types.go     OIDs, T and typmods, pg_type attributes (typlen, typalign, category)
//	names.go     format_type names, TypeByName with typmod validation (typmodin)
//	text.go      text input/output dispatch; bool, int, string, tid I/O
//	float.go     float4/float8 input (strtod syntax) and shortest output as PostgreSQL's Ryu
//	numeric.go   numeric parsing, output, typmod coercion, NumericVar <-> apd conversion
//	datetime.go  timestamp and date I/O, ranges and infinities
//	timestamptz.go  timestamp with time zone I/O in a *time.Location (ParseTextIn,
//	             AppendTextIn, CoerceIn), DST gaps and overlaps as DetermineTimeZoneOffset
//	interval.go  interval input (DecodeInterval, ISO 8601), postgres-style output, comparison
//	interval_typmod.go  interval typmods (field ranges, precision): typmodin/out, AdjustIntervalForTypmod
//	interval_style.go   IntervalStyle output and input; Conv (TimeZone and IntervalStyle)
//	char.go      "char" and its pg_cast entries; xid input; the string category
//	binary.go    send/receive (binary wire format), drawn in its comment
//	disk.go      heap attribute bytes (numeric's NumericData short/long format), drawn in its comment
//	compare.go   Compare, Equal, Hash, order-preserving keys for indexes
//	coerce.go    pg_cast contexts, Coerce (casts with typmod enforcement), CommonType
//	arith.go     + - * / % for integers, floats and numeric with PostgreSQL's errors and scales
//	point.go     point: I/O, binary and disk forms, subscripts
//	array.go     array types: OIDs, array_in/array_out, array_send/array_recv, ArrayType on disk, order
//	array_multi.go  multidimensional ARRAY[...] constructors, array_dims
//	timeofday.go time and timetz: I/O, typmods, binary and disk forms, order, casts
//	json.go      json and jsonb: JsonValue, jsonb_out, ordering and keys, casts, wire forms
//	json_parse.go  PostgreSQL's JSON lexer and parser with its error DETAIL and CONTEXT
//	json_disk.go jsonb's on-disk JsonbContainer
//	ext.go       how point, arrays and the JSON types hook into the dispatch functions of the other files
//
// # Errors
//
// Every error is a *pgerr.Error with PostgreSQL's SQLSTATE and message text
// (22P02 invalid input syntax, 22003 out of range, 22001 value too long,
// 22007/22008 date/time, 22012 division by zero, 22023 bad typmod, 22P03 bad
// binary data, 42846 no cast). DecodeDisk reports malformed bytes as
// DataCorrupted (XX001). Nothing here panics on bad input.
//
// # Conformance
//
// testdata/*.txt hold cases with the results a real PostgreSQL 15.20 gave
// for them (the SQL used is in each file's header); `go test ./types -run
// TestPG -rewrite` regenerates them against a running server.
package types
