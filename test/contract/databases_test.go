package contract

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/linode/linodego"
)

// waitForEvent waits the way the client's users do (the bridged provider's database resources):
// WaitForEventFinished on the account's events, filtered by action, entity and creation time.
func waitForEvent(t *testing.T, ctx context.Context, c *linodego.Client, id int, action linodego.EventAction, since time.Time) *linodego.Event {
	t.Helper()
	event, err := c.WaitForEventFinished(ctx, id, linodego.EntityDatabase, action, since, 120)
	must(t, "WaitForEventFinished "+string(action), err)
	if event.Status != linodego.EventFinished || event.Entity == nil || event.Entity.Type != linodego.EntityDatabase {
		t.Fatalf("%s event: %+v", action, event)
	}
	return event
}

func waitForActive(t *testing.T, ctx context.Context, c *linodego.Client, id int, engine linodego.DatabaseEngineType) {
	t.Helper()
	must(t, "WaitForDatabaseStatus active", c.WaitForDatabaseStatus(ctx, id, engine, linodego.DatabaseStatusActive, 120))
}

func TestMySQLDatabaseLifecycle(t *testing.T) {
	c, ctx := newClient(t), ctxFor(t)

	// Today's engine list: one id per major, as today's clients write them (emulator/README.md).
	engines, err := c.ListDatabaseEngines(ctx, nil)
	must(t, "ListDatabaseEngines", err)
	ids := []string{}
	for _, e := range engines {
		ids = append(ids, e.ID+"="+e.Engine+"@"+e.Version)
	}
	if strings.Join(ids, " ") != "mysql/8=mysql@8 postgresql/13=postgresql@13 postgresql/14=postgresql@14 postgresql/15=postgresql@15 postgresql/16=postgresql@16 postgresql/17=postgresql@17" {
		t.Fatalf("ListDatabaseEngines returned %v", ids)
	}

	// The engine as today's clients write it, the major alone: the newest 8.x is provisioned.
	// engine_config is newer than spec 4.174; the emulator stores it as the later API does.
	created, err := c.CreateMySQLDatabase(ctx, linodego.MySQLCreateOptions{
		Label:     "contract-mysql",
		Region:    "us-iad",
		Type:      "g6-nanode-1",
		Engine:    "mysql/8",
		AllowList: []string{"203.0.113.1", "192.0.2.0/24"},
		EngineConfig: &linodego.MySQLDatabaseEngineConfig{
			MySQL:                 &linodego.MySQLDatabaseEngineConfigMySQL{ConnectTimeout: ptr(10), SQLMode: ptr("TRADITIONAL")},
			BinlogRetentionPeriod: ptr(600),
		},
	})
	must(t, "CreateMySQLDatabase", err)
	if created.Status != linodego.DatabaseStatusProvisioning || created.Engine != "mysql" || created.Version != "8.0.35" ||
		created.Port != 3306 || created.Created == nil || len(created.AllowList) != 2 {
		t.Fatalf("CreateMySQLDatabase returned %+v", created)
	}
	if cfg := created.EngineConfig; cfg.MySQL == nil || *cfg.MySQL.ConnectTimeout != 10 || *cfg.MySQL.SQLMode != "TRADITIONAL" || *cfg.BinlogRetentionPeriod != 600 {
		t.Fatalf("engine_config as returned: %+v", created.EngineConfig)
	}

	waitForEvent(t, ctx, c, created.ID, linodego.ActionDatabaseCreate, *created.Created)
	waitForActive(t, ctx, c, created.ID, linodego.DatabaseEngineTypeMySQL)
	db, err := c.GetMySQLDatabase(ctx, created.ID)
	must(t, "GetMySQLDatabase", err)
	// Spec 4.174: the second host is `secondary`; the client reads the later `standby`.
	if db.Status != linodego.DatabaseStatusActive || db.Hosts.Primary == "" || db.Updates.Duration == 0 {
		t.Fatalf("the active database: %+v", db)
	}

	since := time.Now().Add(-time.Second)
	updated, err := c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{
		Label:        "contract-mysql-2",
		AllowList:    &[]string{"198.51.100.7"},
		Updates:      &linodego.DatabaseMaintenanceWindow{DayOfWeek: linodego.DatabaseMaintenanceDayWednesday, Duration: 1, Frequency: linodego.DatabaseMaintenanceFrequencyWeekly, HourOfDay: 4},
		EngineConfig: &linodego.MySQLDatabaseEngineConfig{MySQL: &linodego.MySQLDatabaseEngineConfigMySQL{ConnectTimeout: ptr(20)}},
	})
	must(t, "UpdateMySQLDatabase", err)
	if updated.Label != "contract-mysql-2" || updated.AllowList[0] != "198.51.100.7" || updated.Updates.HourOfDay != 4 ||
		updated.Updates.DayOfWeek != linodego.DatabaseMaintenanceDayWednesday {
		t.Fatalf("UpdateMySQLDatabase returned %+v", updated)
	}
	// An update changes the parameters it names and keeps the others.
	if cfg := updated.EngineConfig; *cfg.MySQL.ConnectTimeout != 20 || *cfg.MySQL.SQLMode != "TRADITIONAL" {
		t.Fatalf("engine_config after the update: %+v", cfg.MySQL)
	}
	waitForEvent(t, ctx, c, db.ID, linodego.ActionDatabaseUpdate, since)
	waitForActive(t, ctx, c, db.ID, linodego.DatabaseEngineTypeMySQL)

	creds, err := c.GetMySQLDatabaseCredentials(ctx, db.ID)
	must(t, "GetMySQLDatabaseCredentials", err)
	if creds.Username != "linroot" || len(creds.Password) < 8 {
		t.Fatalf("credentials: %+v", creds)
	}
	must(t, "ResetMySQLDatabaseCredentials", c.ResetMySQLDatabaseCredentials(ctx, db.ID))
	after, err := c.GetMySQLDatabaseCredentials(ctx, db.ID)
	must(t, "GetMySQLDatabaseCredentials after reset", err)
	if after.Username != "linroot" || after.Password == creds.Password {
		t.Fatalf("the password did not change: %+v", after)
	}

	ssl, err := c.GetMySQLDatabaseSSL(ctx, db.ID)
	must(t, "GetMySQLDatabaseSSL", err)
	if !strings.HasPrefix(string(ssl.CACertificate), "-----BEGIN CERTIFICATE-----") {
		t.Fatalf("the CA certificate (base64 decoded by the client): %q", ssl.CACertificate)
	}

	must(t, "PatchMySQLDatabase", c.PatchMySQLDatabase(ctx, db.ID))
	waitForActive(t, ctx, c, db.ID, linodego.DatabaseEngineTypeMySQL)

	all, err := c.ListMySQLDatabases(ctx, nil)
	must(t, "ListMySQLDatabases", err)
	if len(all) != 1 || all[0].Label != "contract-mysql-2" {
		t.Fatalf("ListMySQLDatabases returned %+v", all)
	}

	must(t, "DeleteMySQLDatabase", c.DeleteMySQLDatabase(ctx, db.ID))
	_, err = c.GetMySQLDatabase(ctx, db.ID)
	if e := apiError(t, "GetMySQLDatabase after delete", err); e.Code != 404 || e.Message != "Not found" {
		t.Fatalf("after delete: %d %q", e.Code, e.Message)
	}
}

func TestPostgreSQLDatabaseLifecycle(t *testing.T) {
	c, ctx := newClient(t), ctxFor(t)

	// The major alone, as today's clients write it; what the bridged provider sends when nothing is
	// configured: empty groups.
	created, err := c.CreatePostgresDatabase(ctx, linodego.PostgresCreateOptions{
		Label:        "contract-pg",
		Region:       "us-ord",
		Type:         "g6-standard-1",
		Engine:       "postgresql/16",
		ClusterSize:  3,
		EngineConfig: &linodego.PostgresDatabaseEngineConfig{PG: &linodego.PostgresDatabaseEngineConfigPG{}, PGLookout: &linodego.PostgresDatabaseEngineConfigPGLookout{}},
	})
	must(t, "CreatePostgresDatabase", err)
	if created.Status != linodego.DatabaseStatusProvisioning || created.Engine != "postgresql" || created.Version != "16.6" ||
		created.ClusterSize != 3 || created.Port != 5432 {
		t.Fatalf("CreatePostgresDatabase returned %+v", created)
	}
	waitForEvent(t, ctx, c, created.ID, linodego.ActionDatabaseCreate, *created.Created)
	waitForActive(t, ctx, c, created.ID, linodego.DatabaseEngineTypePostgres)

	since := time.Now().Add(-time.Second)
	updated, err := c.UpdatePostgresDatabase(ctx, created.ID, linodego.PostgresUpdateOptions{
		Label:        "contract-pg-2",
		EngineConfig: &linodego.PostgresDatabaseEngineConfig{WorkMem: ptr(4), PG: &linodego.PostgresDatabaseEngineConfigPG{JIT: ptr(true)}},
	})
	must(t, "UpdatePostgresDatabase", err)
	if updated.Label != "contract-pg-2" || updated.EngineConfig.WorkMem == nil || *updated.EngineConfig.WorkMem != 4 ||
		updated.EngineConfig.PG == nil || updated.EngineConfig.PG.JIT == nil || !*updated.EngineConfig.PG.JIT {
		t.Fatalf("UpdatePostgresDatabase returned %+v", updated)
	}
	waitForEvent(t, ctx, c, created.ID, linodego.ActionDatabaseUpdate, since)
	waitForActive(t, ctx, c, created.ID, linodego.DatabaseEngineTypePostgres)

	creds, err := c.GetPostgresDatabaseCredentials(ctx, created.ID)
	must(t, "GetPostgresDatabaseCredentials", err)
	if creds.Username != "linpostgres" || creds.Password == "" {
		t.Fatalf("credentials: %+v", creds)
	}
	must(t, "ResetPostgresDatabaseCredentials", c.ResetPostgresDatabaseCredentials(ctx, created.ID))
	after, err := c.GetPostgresDatabaseCredentials(ctx, created.ID)
	must(t, "GetPostgresDatabaseCredentials after reset", err)
	if after.Password == creds.Password {
		t.Fatalf("the password did not change")
	}
	ssl, err := c.GetPostgresDatabaseSSL(ctx, created.ID)
	must(t, "GetPostgresDatabaseSSL", err)
	if !strings.Contains(string(ssl.CACertificate), "BEGIN CERTIFICATE") {
		t.Fatalf("the CA certificate: %q", ssl.CACertificate)
	}

	must(t, "DeletePostgresDatabase", c.DeletePostgresDatabase(ctx, created.ID))
	dbs, err := c.ListPostgresDatabases(ctx, nil)
	must(t, "ListPostgresDatabases", err)
	if len(dbs) != 0 {
		t.Fatalf("databases after delete: %+v", dbs)
	}
}
