package tpcc

import (
	"context"

	"github.com/jackc/pgx/v5"
)

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
	return func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, cfg.Copy())
	}, nil
}
