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

// IgnoreTargetParam is the developer setting debug_fsm_ignore_target: when
// on, a session forgets its target block before every insert, so that
// every insert asks the free-space policy (for measuring the policy's
// look-ups; PostgreSQL always uses rd_targblock). Off by default.
var IgnoreTargetParam = reloptions.Declare(reloptions.Param{
	Name:    "debug_fsm_ignore_target",
	Kind:    reloptions.Bool,
	Desc:    "Makes every insert ask the free space policy instead of the session's target block",
	Default: "off",
	Setting: reloptions.UserSet,
})
