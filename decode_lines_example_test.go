package json_test

import (
	"errors"
	"fmt"
	"strings"

	json "github.com/jsonpipe/json"
)

func ExampleDecodeLines() {
	const stream = `{"name": "Platypus", "legs": 4}
{"name": "Emu", "legs": 2}

{"name": "Quoll", "legs": "four"}
{"name": "Kiwi", "legs": 2}
`
	type Animal struct {
		Name string `json:"name"`
		Legs int    `json:"legs"`
	}
	// Decoded on 2 goroutines, yielded in input order.
	for a, err := range json.DecodeLines[Animal](strings.NewReader(stream), &json.LinesOptions{Workers: 2}) {
		if err != nil {
			fmt.Println("error:", err)
			var le *json.LineError
			var te *json.UnmarshalTypeError
			if errors.As(err, &le) && errors.As(err, &te) {
				// te.Offset counts from the start of the line.
				fmt.Println("line", le.Line, "starts at byte", le.Offset, "- the bad value ends at byte", le.Offset+te.Offset)
			}
			break // DecodeLines stops after an error anyway
		}
		fmt.Printf("%+v\n", a)
	}
	// Output:
	// {Name:Platypus Legs:4}
	// {Name:Emu Legs:2}
	// error: json: line 4 at byte 60: cannot unmarshal string into Go struct field Animal.legs of type int
	// line 4 starts at byte 60 - the bad value ends at byte 92
}
