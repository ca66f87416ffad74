//go:build !goexperiment.jsonv2 || !go1.27

package json

import "reflect"

// The classic encoding/json (Go 1.26; Go 1.27 with GOEXPERIMENT=nojsonv2)
// has no encoding/json/v2 and never calls MarshalJSONTo or
// UnmarshalJSONFrom, so jsonpipe does not either: a type's methods of those
// names are ordinary methods here. jsonto_go127.go is the other side.
//
// This file is also built on Go 1.26 with GOEXPERIMENT=jsonv2, whose
// encoding/json does call them: jsonto_go127.go names
// encoding/json/jsontext, which a module at go 1.26 may use only in files
// built for Go 1.27 on, so there jsonpipe keeps Go 1.26's default
// behaviour (README; jsonto_go126_test.go pins the difference).

func marshalToEncoder(t reflect.Type, addr, quoted bool) *typeEncoder { return nil }

func dynamicMarshalTo(v reflect.Value) bool { return false }

func hasMarshalTo(t reflect.Type, addr bool) bool { return false }

func bytesAsArray(et reflect.Type) bool { return false }

func hasUnmarshalFrom(pt reflect.Type) bool { return false }

func (b *builder) fromHook(td *typeDecoder, pt, elem, errType reflect.Type) bool { return false }
