// Package sha256 computes SHA-256 as FIPS 180-4 (Secure Hash Standard,
// section 6.2) specifies it: the engine's two hashes, the ledger's argument
// fingerprint (DOMAIN.md §4) and the herd's jitter (recovery.hash32), are
// SHA-256 and must stay byte-identical.
//
// It exists for ARCHITECTURE.md's transfer budget (a page that needs no
// SQLite transfers under 1.5 MB compressed): the standard
// library's crypto/sha256 links, through its init, Go's FIPS 140 module
// (the module's self-test, DRBG, AES, HMAC, SHA-3, SHA-512), about 88 KB of
// code in every wasm binary of the site. Sum256 is one function over a
// fixed table; it is not constant-time and must never hash secrets. The
// tests compare it with crypto/sha256 on the FIPS 180-4 example messages
// and on every length from 0 to 1,000 bytes.
package sha256

import "math/bits"

// Size is the length of a SHA-256 digest in bytes (FIPS 180-4, 256 bits).
const Size = 32

// blockSize is the length of a message block in bytes (FIPS 180-4 §5.2.1,
// 512 bits).
const blockSize = 64

// k holds the 64 round constants K0..K63 (FIPS 180-4 §4.2.2).
var k = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// Sum256 returns the SHA-256 digest of data (FIPS 180-4 §6.2).
func Sum256(data []byte) [Size]byte {
	// Initial hash value H(0) (FIPS 180-4 §5.3.3).
	h := [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
	n := len(data) - len(data)%blockSize
	for i := 0; i < n; i += blockSize {
		block(&h, data[i:i+blockSize])
	}
	// Padding (FIPS 180-4 §5.1.1): the rest, a 1 bit, zeros, and the
	// message length in bits as a 64-bit big-endian number, filling one
	// block, or two when the rest leaves fewer than 9 bytes free.
	var tail [2 * blockSize]byte
	rest := copy(tail[:], data[n:])
	tail[rest] = 0x80
	end := blockSize
	if rest+9 > blockSize {
		end = 2 * blockSize
	}
	putUint32(tail[end-8:], uint32(uint64(len(data))>>29))
	putUint32(tail[end-4:], uint32(uint64(len(data))<<3))
	for i := 0; i < end; i += blockSize {
		block(&h, tail[i:i+blockSize])
	}
	var sum [Size]byte
	for i, v := range h {
		putUint32(sum[4*i:], v)
	}
	return sum
}

// block processes one 64-byte message block p into h (FIPS 180-4 §6.2.2).
func block(h *[8]uint32, p []byte) {
	var w [64]uint32
	for t := 0; t < 16; t++ {
		w[t] = uint32(p[4*t])<<24 | uint32(p[4*t+1])<<16 | uint32(p[4*t+2])<<8 | uint32(p[4*t+3])
	}
	for t := 16; t < 64; t++ {
		s0 := bits.RotateLeft32(w[t-15], -7) ^ bits.RotateLeft32(w[t-15], -18) ^ w[t-15]>>3
		s1 := bits.RotateLeft32(w[t-2], -17) ^ bits.RotateLeft32(w[t-2], -19) ^ w[t-2]>>10
		w[t] = s1 + w[t-7] + s0 + w[t-16]
	}
	a, b, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
	for t := 0; t < 64; t++ {
		S1 := bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)
		ch := e&f ^ ^e&g
		t1 := hh + S1 + ch + k[t] + w[t]
		S0 := bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)
		maj := a&b ^ a&c ^ b&c
		t2 := S0 + maj
		hh, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
	}
	h[0] += a
	h[1] += b
	h[2] += c
	h[3] += d
	h[4] += e
	h[5] += f
	h[6] += g
	h[7] += hh
}

// putUint32 writes v big-endian into b[0:4].
func putUint32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}
