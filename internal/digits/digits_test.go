package digits

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func check(t *testing.T, hi, lo uint32) {
	t.Helper()
	var d [16]byte
	if !Put16(&d, hi, lo) {
		t.Skip("no kernel in this build or on this CPU")
	}
	if want := fmt.Sprintf("%08d%08d", hi, lo); string(d[:]) != want {
		t.Fatalf("Put16(%d, %d) = %q, want %q", hi, lo, d, want)
	}
}

// Every group of four digits in every one of the four places, and random
// and boundary values of the halves.
func TestPut16(t *testing.T) {
	for g := uint32(0); g < 10000; g++ {
		check(t, g, g*10000+9999-g)
		check(t, g*10000, g)
		check(t, 99999999-g, g*10000)
	}
	for _, v := range []uint32{0, 1, 9, 10, 99, 100, 9999, 10000, 10001, 99999999, 12345678, 87654321} {
		check(t, v, v)
		check(t, v, 0)
		check(t, 0, v)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		check(t, r.Uint32N(1e8), r.Uint32N(1e8))
	}
}

// Without a kernel Put16 writes nothing.
func TestPut16Off(t *testing.T) {
	saved := useKernel
	defer func() { useKernel = saved }()
	useKernel = false
	var d [16]byte
	if Put16(&d, 1, 2) || d != [16]byte{} {
		t.Fatalf("Put16 without a kernel wrote %q", d)
	}
}

func TestPutLast(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vals := []uint32{0, 1, 9, 10, 99, 100, 9999, 10000, 10001, 99999999, 12345678, 87654321}
	for range 20000 {
		vals = append(vals, r.Uint32N(1e8))
	}
	for i, hi := range vals {
		lo := vals[(i*7+3)%len(vals)]
		full := fmt.Sprintf("%08d%08d", hi, lo)
		for k := 1; k <= 16; k++ {
			d := [16]byte{0: 'x', 15: 'x'}
			if !PutLast(&d, hi, lo, k) {
				t.Skip("no kernel in this build or on this CPU")
			}
			want := full[16-k:] + string(make([]byte, 16-k))
			if string(d[:]) != want {
				t.Fatalf("PutLast(%d, %d, %d) = %q, want %q", hi, lo, k, d, want)
			}
		}
	}
}
