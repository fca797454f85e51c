package page

import "fmt"

// Page header flag bits (pd_flags).
const (
	PDHasFreeLines = 0x0001 // PD_HAS_FREE_LINES: are there any unused line pointers?
	PDPageFull     = 0x0002 // PD_PAGE_FULL: not enough free space for a new tuple?
	PDAllVisible   = 0x0004 // PD_ALL_VISIBLE: all tuples on the page are visible to everyone
)

// MaxHeapTuplesPerPage is MaxHeapTuplesPerPage for BLCKSZ 8192.
const MaxHeapTuplesPerPage = 291

func (t TID) String() string { return fmt.Sprintf("(%d,%d)", t.Block, t.Offset) }

func ParseTID(s string) (TID, error)                                         { panic("unimplemented") }
func Init(p Page, specialSize int)                                           { panic("unimplemented") }
func IsNew(p Page) bool                                                      { panic("unimplemented") }
func LSN(p Page) uint64                                                      { panic("unimplemented") }
func SetLSN(p Page, lsn uint64)                                              { panic("unimplemented") }
func Lower(p Page) int                                                       { panic("unimplemented") }
func Upper(p Page) int                                                       { panic("unimplemented") }
func Special(p Page) int                                                     { panic("unimplemented") }
func PruneXid(p Page) uint32                                                 { panic("unimplemented") }
func SetPruneXid(p Page, xid uint32)                                         { panic("unimplemented") }
func Flags(p Page) uint16                                                    { panic("unimplemented") }
func SetFlags(p Page, f uint16)                                              { panic("unimplemented") }
func MaxOffset(p Page) uint16                                                { panic("unimplemented") }
func ItemID(p Page, off uint16) (lpOff, flags, lpLen int)                    { panic("unimplemented") }
func SetItemID(p Page, off uint16, lpOff, flags, lpLen int)                  { panic("unimplemented") }
func Item(p Page, off uint16) []byte                                         { panic("unimplemented") }
func AddItem(p Page, item []byte, off uint16, overwrite, isHeap bool) uint16 { panic("unimplemented") }
func FreeSpace(p Page) int                                                   { panic("unimplemented") }
func ExactFreeSpace(p Page) int                                              { panic("unimplemented") }
func HeapFreeSpace(p Page) int                                               { panic("unimplemented") }
func RepairFragmentation(p Page)                                             { panic("unimplemented") }
func TruncateLinePointerArray(p Page)                                        { panic("unimplemented") }
func Verify(p Page) error                                                    { panic("unimplemented") }
