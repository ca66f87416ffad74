package unquote

// Unescape (escapes_amd64.s; escapes_other.go without a kernel) decodes
// the body of a JSON string from src[j:] onward (src[j] is a backslash,
// or a byte of a run between escapes) into dst's spare capacity, and
// returns dst's new length n (the caller reslices dst[:n]), the index of
// the first byte it did not decode, the OR of the runs' bytes it copied
// (their top bits say whether any is not ASCII; each escape becomes valid
// UTF-8, the runs are not checked), and whether it stopped for room.
//
// It goes as far as it can in one loop over runs and escapes: it stops at
// a '"' or control byte, at an escape it leaves to the caller (a bad one;
// a lone surrogate, which becomes U+FFFD), within 16 bytes of src's end,
// after a run of 32 bytes (which the caller searches and copies at once,
// as a plain string), and with full set when fewer than 16 bytes of dst's
// capacity are left (the caller grows dst and calls again). It writes
// nothing past cap(dst), and may write past the n it returns. The caller
// goes on from where it stopped with its own code: Unescape never has the
// last word.
//
// Text in another script written in \u escapes, or with an escape every
// few bytes, is decoded here without a call, a spill or a bounds check per
// escape, which the loop in Go did not manage (the run's word and the
// escape's digits in registers that the loop's other state pushed to the
// stack: 194 instructions an escape in decodeState.unescapeAt, Go 1.27,
// Intel Xeon).
//
// Without a kernel (HasKernel is false) it returns len(dst), j, 0 and
// false.

// EscapeByte maps the letter of each one-letter JSON escape to its byte,
// and every other byte to 0: for the kernel, and for a caller that
// unescapes as it scans.
var EscapeByte = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
