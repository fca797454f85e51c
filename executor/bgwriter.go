package executor

// pg_stat_bgwriter, with PostgreSQL 15's columns:
//
//	checkpoints_timed      bigint   checkpoints started because checkpoint_timeout
//	                                passed (skipped ones included, as PostgreSQL)
//	checkpoints_req        bigint   requested: CHECKPOINT, or WAL past
//	                                max_wal_size / (1 + checkpoint_completion_target)
//	checkpoint_write_time  float8   ms spent writing checkpoint buffers (pacing
//	                                sleeps included, as PostgreSQL)
//	checkpoint_sync_time   float8   ms spent fsyncing them
//	buffers_checkpoint     bigint   buffers written by checkpoints
//	buffers_clean          bigint   0: minipg has no background writer
//	maxwritten_clean       bigint   0: likewise
//	buffers_backend        bigint   dirty buffers written by a backend to take
//	                                their frame (every eviction write)
//	buffers_backend_fsync  bigint   0: backends never fsync data files in minipg
//	                                (only checkpoints do), so 0 for real
//	buffers_alloc          bigint   buffers taken for a page not in the pool
//	stats_reset            timestamp  server start or the last
//	                                pg_stat_reset_shared('bgwriter') (PostgreSQL:
//	                                timestamptz, kept across restarts)
//
// The checkpoint counters are storage/wal's (Log.Stats), the buffer ones
// storage/buffer's (Pool.Counters); both count since the server started,
// and pg_stat_reset_shared('bgwriter') subtracts what they were then.

import (
	"sync"
	"time"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// bgwCounts are pg_stat_bgwriter's counters.
type bgwCounts struct {
	timed, req                 int64
	writeTime, syncTime        time.Duration
	ckptBuffers, backend, allo int64
}

// bgwStats is the reset baseline of pg_stat_bgwriter.
type bgwStats struct {
	mu    sync.Mutex // protects base and reset
	base  bgwCounts
	reset time.Time
}

func (e *Engine) bgwState() *bgwStats { return &e.bgw }

func (e *Engine) bgwNow() bgwCounts {
	st := e.wal.log.Stats()
	pc := e.pool.Counters()
	return bgwCounts{timed: st.CheckpointsTimed, req: st.CheckpointsReq,
		writeTime: st.CheckpointWriteTime, syncTime: st.CheckpointSyncTime,
		ckptBuffers: st.BuffersCheckpoint, backend: pc.BackendWrites, allo: pc.Alloc}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func init() {
	float8Col := func(name string) catalog.Column {
		return catalog.Column{Name: name, TypeOID: uint32(types.Float8), Typmod: -1}
	}
	sql.RegisterVirtualTable("pg_stat_bgwriter", []catalog.Column{
		int8Col("checkpoints_timed"), int8Col("checkpoints_req"),
		float8Col("checkpoint_write_time"), float8Col("checkpoint_sync_time"),
		int8Col("buffers_checkpoint"), int8Col("buffers_clean"), int8Col("maxwritten_clean"),
		int8Col("buffers_backend"), int8Col("buffers_backend_fsync"), int8Col("buffers_alloc"),
		tsCol("stats_reset"),
	}, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		s := e.bgwState()
		now := e.bgwNow()
		s.mu.Lock()
		b, reset := s.base, s.reset
		s.mu.Unlock()
		return [][]types.Datum{{
			now.timed - b.timed, now.req - b.req,
			ms(now.writeTime - b.writeTime), ms(now.syncTime - b.syncTime),
			now.ckptBuffers - b.ckptBuffers, int64(0), int64(0),
			now.backend - b.backend, int64(0), now.allo - b.allo,
			reset,
		}}, nil
	})
	sql.RegisterFunction(sql.Function{
		Name:   "pg_stat_reset_shared",
		Args:   []types.OID{types.Text},
		Result: types.TVoid,
		Fn: func(env any, args []types.Datum) (types.Datum, error) {
			e := env.(*Engine)
			switch target, _ := args[0].(string); target {
			case "bgwriter":
				s := e.bgwState()
				now := e.bgwNow()
				s.mu.Lock()
				s.base, s.reset = now, time.Now().UTC()
				s.mu.Unlock()
				return "", nil
			case "archiver", "wal", "recovery_prefetch":
				return nil, pgerr.New(pgerr.FeatureNotSupported, "resetting \"%s\" statistics is not supported", target).
					WithHint("minipg resets only \"bgwriter\".")
			default:
				return nil, pgerr.New(pgerr.InvalidParameterValue, "unrecognized reset target: \"%s\"", target).
					WithHint("Target must be \"archiver\", \"bgwriter\", \"recovery_prefetch\", or \"wal\".")
			}
		},
	})
}
