package number

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseIntAgainstStrconv checks the 8-digits-at-a-time path against
// strconv on numbers of every length, with every single byte replaced by
// characters that are and are not digits.
func TestParseIntAgainstStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var inputs []string
	for n := 1; n <= 21; n++ {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = '0' + byte(r.IntN(10))
			}
			inputs = append(inputs, string(b), "-"+string(b))
			for _, c := range []byte{'.', 'e', '/', ':', '+', '-', 0x00, 0xb0, 0xff, '0', '9'} {
				m := append([]byte(nil), b...)
				m[r.IntN(n)] = c
				inputs = append(inputs, string(m))
			}
		}
	}
	inputs = append(inputs, "", "-", "--1", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "18446744073709551615", "18446744073709551616", "99999999", "100000000",
		"9999999999999999", "10000000000000000", "1.5", "1e3", "0", "-0")
	for _, in := range inputs {
		got, err := ParseInt([]byte(in))
		want, werr := strconv.ParseInt(in, 10, 64)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("ParseInt(%q) = %d, %v; strconv: %d, %v", in, got, err, want, werr)
		}
		ugot, err := ParseUint([]byte(in))
		uwant, werr := strconv.ParseUint(in, 10, 64)
		if ugot != uwant || (err == nil) != (werr == nil) {
			t.Errorf("ParseUint(%q) = %d, %v; strconv: %d, %v", in, ugot, err, uwant, werr)
		}
	}
}
