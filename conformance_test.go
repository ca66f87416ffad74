package json

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/jsonpipe/json/internal/corpus"
)

// streamAccepts reports whether the token stream of data is exactly one
// value followed by io.EOF.
func streamAccepts(r io.Reader) bool {
	d := NewDecoder(r)
	tok, err := d.NextToken()
	if err != nil {
		return false
	}
	if tok[0] == '{' || tok[0] == '[' {
		for d.Depth() > 0 {
			if _, err := d.NextToken(); err != nil {
				return false
			}
		}
	}
	_, err = d.NextToken()
	return err == io.EOF
}

// TestJSONTestSuite runs every test_parsing file: y_ must be accepted, n_
// rejected, and i_ judged as encoding/json judges it.
//
// The verdict compared for i_ files is encoding/json's Valid (the syntax
// verdict) from encoding_json_baseline_detail.tsv. It differs from the
// Unmarshal verdict in encoding_json_baseline.txt on exactly five files
// (i_number_huge_exp, i_number_neg_int_huge_exp, i_number_pos_double_huge_exp,
// i_number_real_neg_overflow, i_number_real_pos_overflow): their numbers are
// well formed but overflow float64, which Unmarshal reports as an
// UnmarshalTypeError when it decodes into an any; the token layer, like
// Valid, accepts them, and decoding them into a float64 is an error here
// too (TestHostileInput, ParseFloat).
func TestJSONTestSuite(t *testing.T) {
	dir := corpus.ConformanceDir(t)
	unmarshal := corpus.StdBaseline(t)
	valid := stdValidBaseline(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(paths) < 300 {
		t.Fatalf("only %d files in %s", len(paths), dir)
	}
	counts := map[string]int{}
	for _, p := range paths {
		name := filepath.Base(p)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var want bool
		switch name[0] {
		case 'y':
			want = true
		case 'n':
			want = false
		case 'i':
			v, ok := valid[name]
			if !ok {
				t.Errorf("%s: no encoding/json verdict in the baseline", name)
				continue
			}
			want = v == "accept"
			if u := unmarshal[name]; u != v && !strings.Contains(name, "number") {
				t.Errorf("%s: baseline Valid %s but Unmarshal %s: a difference not explained above", name, v, u)
			}
		default:
			continue
		}
		counts[name[:1]]++
		if got := Valid(data); got != want {
			t.Errorf("%s: Valid = %v, want %v", name, got, want)
		}
		if got := streamAccepts(bytes.NewReader(data)); got != want {
			t.Errorf("%s: token stream accepts = %v, want %v", name, got, want)
		}
		if got := streamAccepts(iotest.OneByteReader(bytes.NewReader(data))); got != want {
			t.Errorf("%s: token stream (1-byte reads) accepts = %v, want %v", name, got, want)
		}
		if got := ourCheck(data) == nil; got != want {
			t.Errorf("%s: checkOne accepts = %v, want %v", name, got, want)
		}
	}
	t.Logf("checked %d y_, %d n_, %d i_ files", counts["y"], counts["n"], counts["i"])
}

// stdValidBaseline reads encoding/json's Valid verdict per file.
func stdValidBaseline(t *testing.T) map[string]string {
	data, err := os.ReadFile(filepath.Join(corpus.SharedDir(), "conformance", "encoding_json_baseline_detail.tsv"))
	if err != nil {
		t.Skip("encoding_json_baseline_detail.tsv not found: ", err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(data), "\n")[1:] {
		if f := strings.Split(line, "\t"); len(f) > 2 {
			m[f[0]] = f[1]
		}
	}
	return m
}
