package sha256

import (
	stdsha256 "crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestSum256FIPSExamples proves Sum256 gives the digests that FIPS 180-4's
// example messages have (NIST's published SHA-256 examples: "abc", the
// two-block 448-bit message, and one million "a"s), plus the empty message.
func TestSum256FIPSExamples(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{strings.Repeat("a", 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
	}
	for _, c := range cases {
		sum := Sum256([]byte(c.in))
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("Sum256 of %d bytes (%.10q…) = %s, want FIPS 180-4's %s", len(c.in), c.in, got, c.want)
		}
	}
}

// TestSum256MatchesCryptoSHA256 proves Sum256 is crypto/sha256.Sum256 on
// every length from 0 to 1,000 bytes, which covers every padding case of
// FIPS 180-4 §5.1.1 (a rest of 55 bytes fits one padding block, 56 needs
// two, 64 a whole block of padding) over several blocks, with bytes from a
// fixed xorshift sequence so every byte value occurs.
func TestSum256MatchesCryptoSHA256(t *testing.T) {
	data := make([]byte, 1000)
	x := uint32(2463534242)
	for i := range data {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		data[i] = byte(x)
	}
	for n := 0; n <= len(data); n++ {
		if got, want := Sum256(data[:n]), stdsha256.Sum256(data[:n]); got != want {
			t.Fatalf("Sum256 of %d bytes = %x, want crypto/sha256's %x", n, got, want)
		}
	}
}
