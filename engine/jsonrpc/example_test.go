package jsonrpc_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/jsonrpc"
)

// Parse reads a message once; everything the lab asks of it is then a field.
func Example() {
	for _, raw := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","_meta":{"progressToken":"p-7"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-7","progress":3,"total":10}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":42}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad key"}}`,
		`[7]`,
	} {
		m, err := jsonrpc.Parse([]byte(raw))
		if err != nil {
			fmt.Println(err)
			continue
		}
		switch m.Kind {
		case jsonrpc.Request:
			fmt.Println(m.Kind, m.ID, m.Method, m.Name, "token", m.ProgressToken)
		case jsonrpc.Notification:
			if c, err := m.Cancellation(); err == nil {
				fmt.Println(m.Kind, m.Method, "of", c.RequestID, "reason", c.Reason, "present", c.ReasonPresent)
				continue
			}
			fmt.Println(m.Kind, m.Method, m.ProgressToken, *m.Progress, m.TotalText)
		case jsonrpc.Error:
			fmt.Println(m.Kind, m.ID, *m.ErrorCode, m.ErrorMessage, "final", m.IsFinal())
		}
	}
	fmt.Printf("%s\n", jsonrpc.NewCancel(`7`, nil))
	// Output:
	// request 7 tools/call crunch token "p-7"
	// notification notifications/progress "p-7" 3 10
	// notification notifications/cancelled of 7 reason <nil> present true
	// error 7 -32602 bad key final true
	// not a JSON-RPC message: json: cannot unmarshal array into Go value of type jsonrpc.wireMessage
	// {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}
}
