//go:build !race

package json

const raceBuild = false
