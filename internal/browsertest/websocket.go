package browsertest

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
)

// wsConn is the client side of an RFC 6455 WebSocket, as much of it as
// the DevTools protocol needs: text messages out (masked, unfragmented),
// text messages in (fragmented or not), pings answered, no extensions.
// One goroutine uses it at a time.
type wsConn struct {
	c net.Conn
	r *bufio.Reader
}

// dialWS opens a WebSocket to a ws:// URL. It sends no Origin header,
// which Chromium's DevTools endpoint accepts without --remote-allow-origins.
func dialWS(rawURL string) (*wsConn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "ws" {
		return nil, fmt.Errorf("websocket: want a ws:// URL, have %q", rawURL)
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		return nil, err
	}
	var k [16]byte
	rand.Read(k[:])
	key := base64.StdEncoding.EncodeToString(k[:])
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("websocket handshake: %v", err)
	}
	resp.Body.Close()
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols ||
		resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		c.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	return &wsConn{c: c, r: r}, nil
}

const (
	opContinuation = 0x0
	opText         = 0x1
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xA
)

// writeFrame sends one final frame with the given opcode; a client masks
// every frame it sends.
func (w *wsConn) writeFrame(op byte, payload []byte) error {
	hdr := []byte{0x80 | op}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n <= 0xFFFF:
		hdr = append(hdr, 0x80|126)
		hdr = binary.BigEndian.AppendUint16(hdr, uint16(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	buf := append(hdr, payload...)
	for i := range payload {
		buf[len(hdr)+i] ^= mask[i%4]
	}
	_, err := w.c.Write(buf)
	return err
}

// WriteText sends msg as one text message.
func (w *wsConn) WriteText(msg []byte) error { return w.writeFrame(opText, msg) }

// ReadMessage returns the next text or binary message, joining its
// fragments, answering pings on the way; a close frame ends it with io.EOF.
func (w *wsConn) ReadMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0F
		n := uint64(h[1] & 0x7F)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(w.r, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(w.r, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		if h[1]&0x80 != 0 {
			return nil, errors.New("websocket: the server masked a frame")
		}
		if n > 1<<30 {
			return nil, fmt.Errorf("websocket: a frame of %d bytes", n)
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(w.r, payload); err != nil {
			return nil, err
		}
		switch op {
		case opPing:
			if err := w.writeFrame(opPong, payload); err != nil {
				return nil, err
			}
			continue
		case opPong:
			continue
		case opClose:
			w.writeFrame(opClose, nil)
			return nil, io.EOF
		}
		msg = append(msg, payload...)
		if fin {
			return msg, nil
		}
	}
}

// Close closes the connection without a closing handshake: the browser
// is about to be killed anyway.
func (w *wsConn) Close() error { return w.c.Close() }
