//go:build !goexperiment.jsonv2 || !go1.27

package json

import "reflect"

// The classic encoding/json (Go 1.26; Go 1.27 with GOEXPERIMENT=nojsonv2)
// has no encoding/json/v2 and never calls MarshalJSONTo or
// UnmarshalJSONFrom, so jsonpipe does not either: a type's methods of those
// names are ordinary methods here. jsonto_go127.go is the other side.

func marshalToEncoder(t reflect.Type, addr, quoted bool) *typeEncoder { return nil }

func dynamicMarshalTo(v reflect.Value) bool { return false }

func bytesAsArray(et reflect.Type) bool { return false }

func hasUnmarshalFrom(pt reflect.Type) bool { return false }

func (b *builder) fromHook(td *typeDecoder, pt, elem, errType reflect.Type) bool { return false }
