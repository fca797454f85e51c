package txn

import "runtime"

func runtimeGosched() { runtime.Gosched() }
