package heap

import "minipg/storage/page"

// Attr describes one attribute's storage: Len > 0 fixed, -1 varlena; Align 'c','s','i','d'.
type Attr struct {
	Len   int16
	Align byte
}

// TupleDesc is a row's attribute list.
type TupleDesc []Attr

// TupleHeaderSize is SizeofHeapTupleHeader.
const TupleHeaderSize = 23

// t_infomask bits.
const (
	HeapHasNull        = 0x0001
	HeapHasVarwidth    = 0x0002
	HeapHasExternal    = 0x0004
	HeapHasOidOld      = 0x0008
	HeapXmaxKeyshrLock = 0x0010
	HeapComboCid       = 0x0020
	HeapXmaxExclLock   = 0x0040
	HeapXmaxLockOnly   = 0x0080
	HeapXmaxShrLock    = HeapXmaxExclLock | HeapXmaxKeyshrLock
	HeapLockMask       = HeapXmaxShrLock | HeapXmaxExclLock | HeapXmaxKeyshrLock
	HeapXminCommitted  = 0x0100
	HeapXminInvalid    = 0x0200
	HeapXminFrozen     = HeapXminCommitted | HeapXminInvalid
	HeapXmaxCommitted  = 0x0400
	HeapXmaxInvalid    = 0x0800
	HeapXmaxIsMulti    = 0x1000
	HeapUpdated        = 0x2000
	HeapMovedOff       = 0x4000
	HeapMovedIn        = 0x8000
	HeapMoved          = HeapMovedOff | HeapMovedIn
	HeapXactMask       = 0xFFF0
)

// t_infomask2 bits.
const (
	HeapNattsMask   = 0x07FF
	HeapKeysUpdated = 0x2000
	HeapHotUpdated  = 0x4000
	HeapOnlyTuple   = 0x8000
	Heap2XactMask   = 0xE000
)

func FormTuple(desc TupleDesc, values [][]byte, isnull []bool) ([]byte, error) {
	panic("unimplemented")
}
func DeformTuple(desc TupleDesc, tup []byte, values [][]byte, isnull []bool) error {
	panic("unimplemented")
}
func Xmin(t []byte) uint32            { panic("unimplemented") }
func SetXmin(t []byte, x uint32)      { panic("unimplemented") }
func Xmax(t []byte) uint32            { panic("unimplemented") }
func SetXmax(t []byte, x uint32)      { panic("unimplemented") }
func Cid(t []byte) uint32             { panic("unimplemented") }
func SetCid(t []byte, c uint32)       { panic("unimplemented") }
func Ctid(t []byte) page.TID          { panic("unimplemented") }
func SetCtid(t []byte, tid page.TID)  { panic("unimplemented") }
func Infomask(t []byte) uint16        { panic("unimplemented") }
func SetInfomask(t []byte, m uint16)  { panic("unimplemented") }
func Infomask2(t []byte) uint16       { panic("unimplemented") }
func SetInfomask2(t []byte, m uint16) { panic("unimplemented") }
func Hoff(t []byte) int               { panic("unimplemented") }
func Natts(t []byte) int              { panic("unimplemented") }
