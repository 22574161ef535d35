package mock

import (
	"fmt"
	"os"

	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
)

// Judge imports the transcript at path (the server's view a mock wrote)
// and has the engine's checks judge it, with rule message-valid (package
// checks/schema) last, as mcplab run -checks judges the same file, so the
// mock's, probe-client's and run's tallies agree; maxTimeoutMs and
// idleTimeoutMs are the client's stated timeouts per request in ms (0:
// none), which a server cannot see. Errors: the file cannot be read, or
// does not import (named by path).
func Judge(path string, maxTimeoutMs, idleTimeoutMs int64) (*trace.Trace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tr, err := transcript.Import(data, transcript.Options{MaxTimeoutMs: maxTimeoutMs, IdleTimeoutMs: idleTimeoutMs})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tr.Checks = append(tr.Checks, schema.Check(tr))
	return tr, nil
}
