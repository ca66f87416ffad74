package unquote

import "testing"

func TestAppendChecked(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{`"abc"`, "abc", true},
		{`"a\'b\u00e9"`, "a'bé", true},
		{`"\ud800x"`, "\uFFFDx", true},
		{`"a\x"`, "", false},
		{`"a\u12"`, "", false},
		{`"a\"`, "", false},
		{`"a"b"`, "", false},
		{"\"a\nb\"", "", false},
		{`abc`, "", false},
		{`"`, "", false},
	} {
		got, ok := AppendChecked(nil, []byte(c.in))
		if ok != c.ok || (ok && string(got) != c.want) {
			t.Errorf("AppendChecked(%s) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
