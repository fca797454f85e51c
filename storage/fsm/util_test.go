package fsm

import "minipg/pgerr"

func isCorrupt(err error) bool { return pgerr.CodeOf(err) == pgerr.DataCorrupted }
