package sha256_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/internal/sha256"
)

// FIPS 180-4's first test vector: the digest of "abc". The ledger's
// fingerprint of a call's canonical arguments is this digest in hex
// (DOMAIN.md §4).
func ExampleSum256() {
	fmt.Printf("%x\n", sha256.Sum256([]byte("abc")))
	// Output:
	// ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
}
