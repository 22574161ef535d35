package transcript

import (
	"strings"
	"testing"
)

// Rule (bad input gets a clear error naming where it is): the index
// `mcplab probe` writes beside its transcripts is no transcript; opening
// it says so and names a transcript to open instead of listing every
// format the importer knows. Any other JSON array stays an unknown format.
func TestProbeIndexIsNamed(t *testing.T) {
	for _, c := range []struct {
		name, data, want string
	}{
		{"the probe's index", `[
  {
    "file": "1-clean.client.jsonl",
    "observer": "client",
    "transport": "stdio",
    "protocol": "2026-07-28"
  }
]
`, "this is the probe's index (probe.json), not a transcript: open one of the transcripts it lists, such as 1-clean.client.jsonl"},
		{"another JSON array", `[1, 2, 3]` + "\n", "unknown format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import([]byte(c.data), Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Import: %v, want an error saying %q", err, c.want)
			}
		})
	}
}
