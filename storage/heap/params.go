package heap

import (
	"strconv"

	"minipg/reloptions"
)

// MinFillFactor is HEAP_MIN_FILLFACTOR.
const MinFillFactor = 10

// FillFactorParam is the fillfactor storage parameter (reloptions.c's
// "fillfactor" for heap relations): the percentage of a page inserts may
// fill. It is a table option only, not a server setting.
var FillFactorParam = reloptions.Declare(reloptions.Param{
	Name:    "fillfactor",
	Kind:    reloptions.Int,
	Desc:    "Packs table pages only to this percentage",
	Default: strconv.Itoa(DefaultFillFactor),
	Min:     MinFillFactor,
	Max:     100,
	Table:   true,
})
