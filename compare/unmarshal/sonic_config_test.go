package unmarshal

import (
	stdjson "encoding/json"
	"testing"

	"github.com/bytedance/sonic"
)

// TestSonicConfigs pins down why the benchmarks show sonic twice: its
// default config keeps invalid UTF-8 as it is (encoding/json and jsonpipe
// turn it into U+FFFD), ConfigStd agrees with encoding/json.
func TestSonicConfigs(t *testing.T) {
	in := []byte("\"a\xffb\"")
	var want, def, std string
	if err := stdjson.Unmarshal(in, &want); err != nil {
		t.Fatal(err)
	}
	if err := sonic.Unmarshal(in, &def); err != nil {
		t.Fatal(err)
	}
	if err := sonic.ConfigStd.Unmarshal(in, &std); err != nil {
		t.Fatal(err)
	}
	if std != want {
		t.Errorf("sonic ConfigStd: %q, encoding/json: %q", std, want)
	}
	if def == want {
		t.Errorf("sonic's default config now checks UTF-8 (%q): update the benchmark notes", def)
	}
}
