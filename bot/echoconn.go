package bot

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/gorilla/websocket"
	"github.com/slack-go/slack/socketmode"
)

// slack-go gives no hook between reading a Socket Mode frame and parsing it,
// so the pre-filter of the bot's echoed messages (shrinkOwnEcho) sits under
// its WebSocket connection: echoConn reads the frames Slack sends and hands
// the WebSocket client each one as it came, or, for a message event the bot
// drops, the same frame carrying the shrunk envelope. Frames it does not
// understand (fragmented, compressed, control, binary, masked) go through
// untouched; so does everything once anything looks wrong.

// echoDialOption returns the Socket Mode option that dials Slack through
// echoConn, shrinking the bot's echoed messages (self returns the bot's user
// id, known once the Socket Mode client runs), and ok false when a proxy is
// set for Slack's address: the client's own dialer then connects through
// the proxy and every frame is parsed in full, as before.
func echoDialOption(self func() string) (socketmode.Option, bool) {
	probe := &http.Request{URL: &url.URL{Scheme: "https", Host: "wss-primary.slack.com"}}
	if p, err := http.ProxyFromEnvironment(probe); err != nil || p != nil {
		return nil, false
	}
	wrap := func(c net.Conn) net.Conn { return &echoConn{Conn: c, self: self} }
	var d net.Dialer
	return socketmode.OptionDialer(&websocket.Dialer{
		// slack-go's own dialer's settings (socketmode openAndDial), less
		// the proxy.
		HandshakeTimeout: 45 * time.Second,
		WriteBufferSize:  32 * 1024,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return wrap(c), nil
		},
		NetDialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			tc := tls.Client(c, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12})
			if err := tc.HandshakeContext(ctx); err != nil {
				_ = c.Close()
				return nil, err
			}
			return wrap(tc), nil
		},
	}), true
}

// maxHandshake bounds the HTTP upgrade response echoConn waits to see the
// end of before it stops looking at frames.
const maxHandshake = 64 << 10

// echoConn is a client's connection to Slack's Socket Mode WebSocket server
// that shrinks the bot's echoed messages in the frames it reads. Writes go
// through unchanged. It is read by one goroutine at a time, as a
// websocket.Conn reads its connection.
type echoConn struct {
	net.Conn
	self func() string

	upgraded bool   // the HTTP upgrade response has gone through
	passThru bool   // stopped looking: everything goes through as read
	buf      []byte // what one read of the connection fills
	in       []byte
	out      []byte
	err      error // the read error to return once out is handed on
}

func (c *echoConn) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.buf == nil {
			c.buf = make([]byte, 32<<10)
		}
		n, err := c.Conn.Read(c.buf)
		c.in = append(c.in, c.buf[:n]...)
		c.err = err
		c.process()
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	if len(c.out) == 0 {
		c.out = nil
	}
	return n, nil
}

// process moves what it can from in to out: the upgrade response as it is,
// then each whole frame, shrunk or as it is.
func (c *echoConn) process() {
	if !c.upgraded && !c.passThru {
		end := bytes.Index(c.in, []byte("\r\n\r\n"))
		switch {
		case end >= 0:
			c.out = append(c.out, c.in[:end+4]...)
			c.in = c.in[end+4:]
			c.upgraded = true
		case len(c.in) > maxHandshake:
			c.passThru = true
		default:
			return
		}
	}
	for !c.passThru && len(c.in) > 0 {
		head, size, ok := frameSize(c.in)
		if !ok {
			break // not whole yet
		}
		if size < 0 {
			c.passThru = true
			break
		}
		frame := c.in[:head+size]
		if b0 := frame[0]; b0 == 0x81 { // FIN, no RSV bits, text: a whole message
			if small := shrinkOwnEcho(frame[head:], c.self()); small != nil {
				frame = textFrame(small)
			}
		}
		c.out = append(c.out, frame...)
		c.in = c.in[head+size:]
	}
	if c.passThru {
		c.out = append(c.out, c.in...)
		c.in = nil
	}
}

// maxFrame is the largest frame echoConn holds back to look at; a larger
// one turns the filter off for the connection.
const maxFrame = 16 << 20

// frameSize reads the header of the server frame at the start of b: the
// header's length and the payload's, ok false if b does not yet hold the
// whole frame. A size of -1 means a frame echoConn does not handle (masked,
// as no server sends, or too large): the caller stops looking.
func frameSize(b []byte) (head, size int, ok bool) {
	if len(b) < 2 {
		return 0, 0, false
	}
	if b[1]&0x80 != 0 {
		return 0, -1, true
	}
	head, n := 2, uint64(b[1]&0x7f)
	switch n {
	case 126:
		if len(b) < 4 {
			return 0, 0, false
		}
		head, n = 4, uint64(binary.BigEndian.Uint16(b[2:4]))
	case 127:
		if len(b) < 10 {
			return 0, 0, false
		}
		head, n = 10, binary.BigEndian.Uint64(b[2:10])
	}
	if n > maxFrame {
		return 0, -1, true
	}
	if uint64(len(b)-head) < n {
		return 0, 0, false
	}
	return head, int(n), true
}

// textFrame is a whole, unmasked text frame carrying payload.
func textFrame(payload []byte) []byte {
	n := len(payload)
	var f []byte
	switch {
	case n < 126:
		f = append(make([]byte, 0, 2+n), 0x81, byte(n))
	case n <= 0xffff:
		f = append(make([]byte, 0, 4+n), 0x81, 126, byte(n>>8), byte(n))
	default:
		f = make([]byte, 10, 10+n)
		f[0], f[1] = 0x81, 127
		binary.BigEndian.PutUint64(f[2:], uint64(n))
	}
	return append(f, payload...)
}
