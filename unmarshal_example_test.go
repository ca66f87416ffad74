package json_test

import (
	"errors"
	"fmt"
	"strings"

	json "github.com/jsonpipe/json"
)

func ExampleUnmarshal() {
	type Animal struct {
		Name  string
		Order string `json:"order"`
		Legs  int    `json:",omitempty"`
	}
	data := []byte(`[{"Name": "Platypus", "Order": "Monotremata"}, {"name": "Quoll", "order": "Dasyuromorphia", "legs": 4}]`)
	var animals []Animal
	if err := json.Unmarshal(data, &animals); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Printf("%+v\n", animals)

	// Errors are encoding/json's, with the same details.
	var a Animal
	err := json.Unmarshal([]byte(`{"Name": "Emu", "Legs": "two"}`), &a)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		fmt.Println(te.Field, te.Value, te.Offset, "-", a.Name)
	}
	// Output:
	// [{Name:Platypus Order:Monotremata Legs:0} {Name:Quoll Order:Dasyuromorphia Legs:4}]
	// Legs string 29 - Emu
}

func ExampleDecoder_Decode() {
	const stream = `
	{"Name": "Ed", "Text": "Knock knock."}
	{"Name": "Sam", "Text": "Who's there?"}
	{"Name": "Ed", "Text": "Go fmt."}
`
	type Message struct{ Name, Text string }
	dec := json.NewDecoder(strings.NewReader(stream))
	for {
		var m Message
		if err := dec.Decode(&m); err != nil {
			break // io.EOF at the end
		}
		fmt.Printf("%s: %s\n", m.Name, m.Text)
	}
	// Output:
	// Ed: Knock knock.
	// Sam: Who's there?
	// Ed: Go fmt.
}

func ExampleDecoder_Decode_afterToken() {
	// Token and Decode mix: read the array's '[' with Token, then decode
	// its elements one at a time.
	dec := json.NewDecoder(strings.NewReader(`[{"n": 1}, {"n": 2}, {"n": 3}]`))
	if _, err := dec.Token(); err != nil {
		panic(err)
	}
	sum := 0
	for dec.More() {
		var v struct{ N int }
		if err := dec.Decode(&v); err != nil {
			panic(err)
		}
		sum += v.N
	}
	fmt.Println(sum)
	// Output: 6
}
