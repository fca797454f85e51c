package fsm

import "minipg/pgerr"

// Sentinels. Errors from this package wrap one of them (errors.Is works) and
// carry its SQLSTATE.
var (
	// ErrCorrupt: Check found the map inconsistent (XX001, so
	// pgerr.IsCorruption finds it).
	ErrCorrupt = pgerr.New(pgerr.DataCorrupted, "fsm: free space map is inconsistent")
	// ErrUnknownPolicy: PolicyByName was given a name no policy has (22023).
	ErrUnknownPolicy = pgerr.New(pgerr.InvalidParameterValue, "fsm: unknown free space policy")
)

// corruptf returns an ErrCorrupt error with a specific message.
func corruptf(format string, args ...any) error {
	return pgerr.FromSentinel(ErrCorrupt, nil, "fsm: "+format, args...)
}
