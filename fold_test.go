package json

import (
	"bytes"
	"testing"
)

// FuzzFold: two names match case-insensitively exactly when
// bytes.EqualFold says so, as in encoding/json.
func FuzzFold(f *testing.F) {
	for _, ss := range [][2]string{
		{"", ""}, {"123abc", "123ABC"}, {"αβδ", "ΑΒΔ"}, {"abc", "xyz"}, {"hello, world!", "HELLO, WORLD!"},
		{"γειά, κόσμε!", "ΓΕΙΆ, ΚΌΣΜΕ!"}, {"AESKey", "aesKey"}, {"aes_key", "AES_KEY"}, {"ſ", "S"}, {"K", "k"},
		{"\xff", "\xfe"}, {"AES Key", "aeskey"},
	} {
		f.Add([]byte(ss[0]), []byte(ss[1]))
	}
	f.Fuzz(func(t *testing.T, x, y []byte) {
		got := string(appendFolded(nil, x)) == string(appendFolded(nil, y))
		if want := bytes.EqualFold(x, y); got != want {
			t.Errorf("fold(%q) == fold(%q): %v, want %v", x, y, got, want)
		}
		if isASCII(x) {
			if got, want := foldASCIIEqual(x, string(appendFolded(nil, y))), bytes.EqualFold(x, y); got != want && isASCII(y) {
				t.Errorf("foldASCIIEqual(%q, fold(%q)) = %v, want %v", x, y, got, want)
			}
		}
	})
}
