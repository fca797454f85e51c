package executor

// The planner's settings: PostgreSQL 15's planner method switches, cost
// constants and other planner options, with their types, ranges, units
// and defaults, so that scripts and tools that tune PostgreSQL's planner
// run unchanged.
//
// minipg's planner is rule-based (a usable index is taken, a "ctid =
// constant" is a TID scan), so most of these change nothing it does; they
// are kept, validated and shown as PostgreSQL keeps them. It reads the
// switches of the plans it has:
//
//   - enable_tidscan = off: no Tid Scan; the table is scanned with the
//     condition as a filter.
//   - enable_indexscan = off: no index gives rows in order (for ORDER BY,
//     or min/max), as only an index scan does; with enable_bitmapscan off
//     as well, no index is used at all. PostgreSQL would still use the
//     index through a bitmap scan with only enable_indexscan off; minipg
//     has no bitmap scans and keeps its index scan in that case.

import (
	"math"

	"minipg/reloptions"
)

const (
	catMethod = "Query Tuning / Planner Method Configuration"
	catCost   = "Query Tuning / Planner Cost Constants"
	catOther  = "Query Tuning / Other Planner Options"
	catGEQO   = "Query Tuning / Genetic Query Optimizer"
	catAsync  = "Resource Usage / Asynchronous Behavior"
	catMemory = "Resource Usage / Memory"
)

// planSwitch declares a planner method switch.
func planSwitch(name, def, desc string) *reloptions.Param {
	return reloptions.Declare(reloptions.Param{Name: name, Kind: reloptions.Bool, Default: def, Desc: desc,
		Category: catMethod, Setting: reloptions.UserSet})
}

// planReal declares a real-valued planner setting.
func planReal(name, def string, lo, hi float64, cat, desc string) *reloptions.Param {
	return reloptions.Declare(reloptions.Param{Name: name, Kind: reloptions.Real, Default: def, Min: lo, Max: hi,
		Desc: desc, Category: cat, Setting: reloptions.UserSet})
}

// planInt declares an integer planner setting; unit is its base unit.
func planInt(name, def string, lo, hi float64, unit, cat, desc string) *reloptions.Param {
	return reloptions.Declare(reloptions.Param{Name: name, Kind: reloptions.Int, Default: def, Min: lo, Max: hi,
		Unit: unit, Desc: desc, Category: cat, Setting: reloptions.UserSet})
}

// planEnum declares an enum planner setting.
func planEnum(name, def string, words []string, cat, desc string) *reloptions.Param {
	return reloptions.Declare(reloptions.Param{Name: name, Kind: reloptions.Enum, Default: def,
		Values: func() []string { return words }, Desc: desc, Category: cat, Setting: reloptions.UserSet})
}

// The switches minipg's planner reads.
var (
	enableIndexScan  = planSwitch("enable_indexscan", "on", "Enables the planner's use of index-scan plans.")
	enableBitmapScan = planSwitch("enable_bitmapscan", "on", "Enables the planner's use of bitmap-scan plans.")
	enableTidScan    = planSwitch("enable_tidscan", "on", "Enables the planner's use of TID scan plans.")
)

func init() {
	for _, s := range [][3]string{
		{"enable_async_append", "on", "Enables the planner's use of async append plans."},
		{"enable_gathermerge", "on", "Enables the planner's use of gather merge plans."},
		{"enable_hashagg", "on", "Enables the planner's use of hashed aggregation plans."},
		{"enable_hashjoin", "on", "Enables the planner's use of hash join plans."},
		{"enable_incremental_sort", "on", "Enables the planner's use of incremental sort steps."},
		{"enable_indexonlyscan", "on", "Enables the planner's use of index-only-scan plans."},
		{"enable_material", "on", "Enables the planner's use of materialization."},
		{"enable_memoize", "on", "Enables the planner's use of memoization."},
		{"enable_mergejoin", "on", "Enables the planner's use of merge join plans."},
		{"enable_nestloop", "on", "Enables the planner's use of nested-loop join plans."},
		{"enable_parallel_append", "on", "Enables the planner's use of parallel append plans."},
		{"enable_parallel_hash", "on", "Enables the planner's use of parallel hash plans."},
		{"enable_partition_pruning", "on", "Enables plan-time and execution-time partition pruning."},
		{"enable_partitionwise_aggregate", "off", "Enables partitionwise aggregation and grouping."},
		{"enable_partitionwise_join", "off", "Enables partitionwise join."},
		{"enable_seqscan", "on", "Enables the planner's use of sequential-scan plans."},
		{"enable_sort", "on", "Enables the planner's use of explicit sort steps."},
	} {
		planSwitch(s[0], s[1], s[2])
	}
	const inf = math.MaxFloat64
	planReal("seq_page_cost", "1", 0, inf, catCost, "Sets the planner's estimate of the cost of a sequentially fetched disk page.")
	planReal("random_page_cost", "4", 0, inf, catCost, "Sets the planner's estimate of the cost of a nonsequentially fetched disk page.")
	planReal("cpu_tuple_cost", "0.01", 0, inf, catCost, "Sets the planner's estimate of the cost of processing each tuple (row).")
	planReal("cpu_index_tuple_cost", "0.005", 0, inf, catCost, "Sets the planner's estimate of the cost of processing each index entry during an index scan.")
	planReal("cpu_operator_cost", "0.0025", 0, inf, catCost, "Sets the planner's estimate of the cost of processing each operator or function call.")
	planReal("parallel_setup_cost", "1000", 0, inf, catCost, "Sets the planner's estimate of the cost of starting up worker processes for parallel query.")
	planReal("parallel_tuple_cost", "0.1", 0, inf, catCost, "Sets the planner's estimate of the cost of passing each tuple (row) from worker to leader backend.")
	planReal("jit_above_cost", "100000", -1, inf, catCost, "Perform JIT compilation if query is more expensive.")
	planReal("jit_inline_above_cost", "500000", -1, inf, catCost, "Perform JIT inlining if query is more expensive.")
	planReal("jit_optimize_above_cost", "500000", -1, inf, catCost, "Optimize JIT-compiled functions if query is more expensive.")
	planInt("effective_cache_size", "4GB", 1, math.MaxInt32, "8kB", catCost, "Sets the planner's assumption about the total size of the data caches.")
	planInt("min_parallel_table_scan_size", "8MB", 0, math.MaxInt32/3, "8kB", catCost, "Sets the minimum amount of table data for a parallel scan.")
	planInt("min_parallel_index_scan_size", "512kB", 0, math.MaxInt32/3, "8kB", catCost, "Sets the minimum amount of index data for a parallel scan.")

	planEnum("constraint_exclusion", "partition", []string{"partition", "on", "off"}, catOther, "Enables the planner to use constraints to optimize queries.")
	planReal("cursor_tuple_fraction", "0.1", 0, 1, catOther, "Sets the planner's estimate of the fraction of a cursor's rows that will be retrieved.")
	planInt("default_statistics_target", "100", 1, 10000, "", catOther, "Sets the default statistics target.")
	planInt("from_collapse_limit", "8", 1, math.MaxInt32, "", catOther, "Sets the FROM-list size beyond which subqueries are not collapsed.")
	planInt("join_collapse_limit", "8", 1, math.MaxInt32, "", catOther, "Sets the FROM-list size beyond which JOIN constructs are not flattened.")
	planEnum("plan_cache_mode", "auto", []string{"auto", "force_generic_plan", "force_custom_plan"}, catOther, "Controls the planner's selection of custom or generic plan.")
	planReal("recursive_worktable_factor", "10", 0.001, 1e6, catOther, "Sets the planner's estimate of the average size of a recursive query's working table.")
	planInt("geqo_threshold", "12", 2, math.MaxInt32, "", catGEQO, "Sets the threshold of FROM items beyond which GEQO is used.")

	planInt("max_parallel_workers_per_gather", "2", 0, 1024, "", catAsync, "Sets the maximum number of parallel processes per executor node.")
	planInt("max_parallel_workers", "8", 0, 1024, "", catAsync, "Sets the maximum number of parallel workers that can be active at one time.")
	planInt("max_parallel_maintenance_workers", "2", 0, 1024, "", catAsync, "Sets the maximum number of parallel processes per maintenance operation.")
	reloptions.Declare(reloptions.Param{Name: "parallel_leader_participation", Kind: reloptions.Bool, Default: "on",
		Desc: "Controls whether Gather and Gather Merge also run subplans.", Category: catAsync, Setting: reloptions.UserSet})
	planInt("effective_io_concurrency", "1", 0, 1000, "", catAsync, "Number of simultaneous requests that can be handled efficiently by the disk subsystem.")
	planReal("hash_mem_multiplier", "2", 1, 1000, catMemory, "Multiple of work_mem to use for hash tables.")
}

// planOn reports whether the session has the planner switch p on (true
// outside a session).
func (x *execCtx) planOn(p *reloptions.Param) bool {
	if x.s == nil {
		return true
	}
	return x.s.settings[p.Name] != "off"
}
