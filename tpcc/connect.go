package tpcc

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// AppName is the application_name of the driver's sessions, so that
// activity of other sessions can be told apart (see OtherSessions).
const AppName = "minipg-bench"

// DSNConnector returns a Connector for dsn. A non-empty schema becomes the
// connections' search_path, so that several databases of bmsql_* tables can
// live side by side in one PostgreSQL database.
func DSNConnector(dsn, schema string) (Connector, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	if schema != "" {
		cfg.RuntimeParams["search_path"] = schema
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = AppName
	}
	return func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, cfg.Copy())
	}, nil
}

// openN opens n connections with connect; if one fails, it closes those
// already open and returns the error.
func openN(ctx context.Context, connect Connector, n int) ([]*pgx.Conn, error) {
	conns := make([]*pgx.Conn, n)
	for i := range conns {
		c, err := connect(ctx)
		if err != nil {
			for _, c := range conns[:i] {
				c.Close(context.Background())
			}
			return nil, err
		}
		conns[i] = c
	}
	return conns, nil
}
