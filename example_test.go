package json_test

import (
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/jsonpipe/json"
)

// NextToken yields each token as bytes, without allocating; ':' and ','
// are checked and consumed.
func ExampleDecoder_NextToken() {
	d := json.NewDecoder(strings.NewReader(`{"name": "gopher", "tags": ["a", "b"], "age": 13}`))
	for {
		tok, err := d.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s ", tok)
	}
	fmt.Println()
	// Output: { "name" "gopher" "tags" [ "a" "b" ] "age" 13 }
}

// Token is encoding/json's Decoder.Token, value for value.
func ExampleDecoder_Token() {
	d := json.NewDecoder(strings.NewReader(`{"a": [1, "x\n", true, null]}`))
	for {
		t, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%T: %q\n", t, fmt.Sprint(t))
	}
	// Output:
	// json.Delim: "{"
	// string: "a"
	// json.Delim: "["
	// float64: "1"
	// string: "x\n"
	// bool: "true"
	// <nil>: "<nil>"
	// json.Delim: "]"
	// json.Delim: "}"
}

// Syntax errors carry the byte offset, as encoding/json's do.
func ExampleSyntaxError() {
	d := json.NewDecoder(strings.NewReader(`{"a": 1 "b": 2}`))
	for {
		if _, err := d.NextToken(); err != nil {
			fmt.Println(err, "at offset", err.(*json.SyntaxError).Offset)
			return
		}
	}
	// Output: invalid character '"' after object key:value pair at offset 9
}

// A stream of values (NDJSON or concatenated) reads like one value after
// another; io.EOF marks the clean end.
func ExampleDecoder_More() {
	d := json.NewDecoder(strings.NewReader("{\"id\":1}\n{\"id\":2}\n"))
	var ids []int64
	for {
		tok, err := d.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		if string(tok) == `"id"` {
			tok, _ = d.NextToken()
			id, _ := json.ParseInt(tok)
			ids = append(ids, id)
		}
	}
	fmt.Println(ids)
	// Output: [1 2]
}

// AppendUnquoted decodes a string token into a reused buffer.
func ExampleAppendUnquoted() {
	d := json.NewDecoder(strings.NewReader(`["caf\u00e9", "plain"]`))
	var buf []byte
	d.NextToken() // [
	for d.More() {
		tok, _ := d.NextToken()
		buf = d.AppendUnquoted(buf[:0], tok)
		fmt.Println(string(buf))
	}
	// Output:
	// café
	// plain
}

// RawValue captures a whole value as it appears in the input.
func ExampleDecoder_RawValue() {
	d := json.NewDecoder(strings.NewReader(`{"meta": {"a": [1, 2]}, "n": 3}`))
	d.NextToken() // {
	d.NextToken() // "meta"
	raw, err := d.RawValue()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(raw))
	// Output: {"a": [1, 2]}
}

func ExampleParseFloat() {
	f, err := json.ParseFloat([]byte("-12.5e-1"))
	fmt.Println(f, err)
	_, err = json.ParseInt([]byte("9223372036854775808"))
	fmt.Println(err)
	// Output:
	// -1.25 <nil>
	// strconv.ParseInt: parsing "9223372036854775808": value out of range
}

func ExampleValid() {
	fmt.Println(json.Valid([]byte(`{"a": [1, 2]}`)), json.Valid([]byte(`{"a": [1, 2}`)))
	// Output: true false
}

// The Scanner splits input into lexical tokens, ':' and ',' included,
// validating each token but not their order.
func ExampleScanner() {
	s := json.NewScanner(strings.NewReader(`{"a": [1, true]}`))
	for tok := s.Next(); tok != nil; tok = s.Next() {
		fmt.Printf("%s ", tok)
	}
	fmt.Println(s.Err())
	// Output: { "a" : [ 1 , true ] } <nil>
}

// A TokenWriter writes JSON token by token, adding the ':' and ',' itself
// and checking the order; with NextToken it rewrites a stream without
// decoding it into values. Here every "price" in cents becomes a price in
// euros.
func ExampleTokenWriter() {
	in := `{"item": "tea <green>", "price": 450, "tags": ["hot", "leaf"]}
{"item": "coffee", "price": 299, "tags": []}`
	d := json.NewDecoder(strings.NewReader(in))
	w := json.NewTokenWriter(os.Stdout)
	w.SetEscapeHTML(false)
	var s []byte
	key := ""
	for {
		tok, err := d.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		switch {
		case tok[0] == '{':
			err = w.BeginObject()
		case tok[0] == '}':
			err = w.EndObject()
		case tok[0] == '[':
			err = w.BeginArray()
		case tok[0] == ']':
			err = w.EndArray()
		case d.Depth() == 1 && key == "" && tok[0] == '"': // a key of the outer object
			s = d.AppendUnquoted(s[:0], tok)
			key = string(s)
			err = w.Key(key)
			continue
		case key == "price":
			cents, _ := json.ParseInt(tok)
			err = w.Float(float64(cents) / 100)
		case tok[0] == '"':
			err = w.StringBytes(d.AppendUnquoted(s[:0], tok))
		default:
			err = w.RawValue(tok) // other numbers, true, false, null
		}
		if err != nil {
			log.Fatal(err)
		}
		if d.Depth() == 1 {
			key = "" // the member's value is complete
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"item":"tea <green>","price":4.5,"tags":["hot","leaf"]}
	// {"item":"coffee","price":2.99,"tags":[]}
}

// A string too long to hold whole, read in pieces as it arrives: the
// decoder's window never grows to hold it.
func ExampleDecoder_StreamLongStrings() {
	in := `{"id": 7, "blob": "` + strings.Repeat(`abc\n`, 100_000) + `"}`
	d := json.NewDecoder(strings.NewReader(in))
	n := 0
	d.StreamLongStrings(64<<10, func(piece []byte) error {
		n += len(piece) // write it where it goes instead
		return nil
	})
	for {
		tok, err := d.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		if json.Streamed(tok) {
			fmt.Println("streamed a string of", n, "bytes")
		}
	}
	// Output: streamed a string of 400000 bytes
}
