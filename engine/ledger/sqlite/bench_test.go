package sqlite

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/ncruces/go-sqlite3"
)

// BenchmarkLedgerCharge measures keyed charges per second through the
// ledger (prepare, BEGIN IMMEDIATE, lookup, effect, record, COMMIT) on a
// native file in WAL mode. Budget (ARCHITECTURE.md): within 2x of
// BenchmarkDirectSQL, the same SQL run directly on the same driver.
func BenchmarkLedgerCharge(b *testing.B) {
	l, err := OpenFile(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	c, _ := l.Connect()
	defer c.Close()
	i := 0
	for b.Loop() {
		i++
		in, err := ledger.Prepare("charge_account", json.RawMessage(fmt.Sprintf(`{"account":"a","cents":100,"idempotencyKey":"k-%d"}`, i)), json.RawMessage(`1`))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ledger.Apply(c, int64(i), in, true); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "charges/s")
}

// BenchmarkDirectSQL runs the statements one keyed charge needs straight on
// the driver: the baseline for BenchmarkLedgerCharge.
func BenchmarkDirectSQL(b *testing.B) {
	l, err := OpenFile(filepath.Join(b.TempDir(), "direct.db"))
	if err != nil {
		b.Fatal(err)
	}
	c, err := sqlite3.Open(l.dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	lookup, _, _ := c.Prepare(`SELECT key, tool, fingerprint, result, committed_at FROM idempotency WHERE key = ?`)
	count, _, _ := c.Prepare(`SELECT COALESCE(MAX(n), 0) FROM executions`)
	effect, _, _ := c.Prepare(`INSERT INTO executions(n, tool, receipt, args, at) VALUES (?, ?, ?, ?, ?)`)
	record, _, _ := c.Prepare(`INSERT INTO idempotency(key, tool, fingerprint, result, committed_at) VALUES (?, ?, ?, ?, ?)`)
	defer lookup.Close()
	defer count.Close()
	defer effect.Close()
	defer record.Close()
	i := 0
	for b.Loop() {
		i++
		key := fmt.Sprintf("k-%d", i)
		if err := c.Exec(`BEGIN IMMEDIATE`); err != nil {
			b.Fatal(err)
		}
		lookup.BindText(1, key)
		lookup.Step()
		lookup.Reset()
		count.Step()
		n := count.ColumnInt64(0) + 1
		count.Reset()
		effect.BindInt64(1, n)
		effect.BindText(2, "charge_account")
		effect.BindText(3, fmt.Sprintf("charge-%03d", n))
		effect.BindText(4, `{"account":"a","cents":100}`)
		effect.BindInt64(5, int64(i))
		effect.Exec()
		record.BindText(1, key)
		record.BindText(2, "charge_account")
		record.BindText(3, "fp")
		record.BindText(4, `{"account":"a","cents":100,"receipt":"charge-001","rpcId":1}`)
		record.BindInt64(5, int64(i))
		record.Exec()
		if err := c.Exec(`COMMIT`); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "charges/s")
}
