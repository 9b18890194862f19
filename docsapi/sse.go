package docsapi

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxEventBytes caps one event's data, so a stream without line breaks
// cannot take all memory. A search tool's results are far smaller.
const maxEventBytes = 8 << 20

// errEventTooLarge reports an event past maxEventBytes.
var errEventTooLarge = errors.New("stream event larger than 8 MiB")

// sseReader splits a Server-Sent Events stream into the data of its events.
// It follows the SSE rules a client needs: lines end with LF, CRLF or CR
// (a stream that only ever uses CR is read as one long line, up to the cap);
// "data:" with or without a space; several data lines of one event joined
// with LF; comments (":") and other fields (event, id, retry) ignored; an
// event ends at a blank line, and the last one also at the end of the input.
// Lines of any length up to the cap are read.
type sseReader struct {
	r       *bufio.Reader
	line    []byte   // the line being read
	pending [][]byte // further lines of line, split at lone CRs
	readErr error    // the error that ended the last line, returned next
	data    []byte   // data of the event being read
	hasData bool
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 32<<10)}
}

// next returns the data of the next event that has any. The slice is valid
// until the following call. At the end of the input it returns io.EOF; a
// read error is returned as it is.
func (s *sseReader) next() ([]byte, error) {
	s.data, s.hasData = s.data[:0], false
	for {
		line, err := s.readLine()
		if err != nil {
			if s.hasData && err == io.EOF {
				return s.data, nil // an event cut off by the end of the input, tolerated
			}
			return nil, err
		}
		if len(line) == 0 {
			if s.hasData {
				return s.data, nil
			}
			continue
		}
		if line[0] == ':' {
			continue // comment, such as a keep-alive
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		if string(field) != "data" {
			continue
		}
		if len(s.data)+len(value)+1 > maxEventBytes {
			return nil, errEventTooLarge
		}
		if s.hasData {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, value...)
		s.hasData = true
	}
}

// readLine returns the next line without its end. The slice is valid until
// the following call.
func (s *sseReader) readLine() ([]byte, error) {
	if len(s.pending) > 0 {
		l := s.pending[0]
		s.pending = s.pending[1:]
		return l, nil
	}
	if s.readErr != nil {
		return nil, s.readErr
	}
	s.line = s.line[:0]
	for {
		frag, err := s.r.ReadSlice('\n')
		if len(s.line)+len(frag) > maxEventBytes {
			return nil, errEventTooLarge
		}
		s.line = append(s.line, frag...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if len(s.line) == 0 {
				return nil, err
			}
			s.readErr = err // the last line had no end: return it, then err
		}
		break
	}
	line := bytes.TrimSuffix(s.line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if bytes.IndexByte(line, '\r') >= 0 {
		parts := bytes.Split(line, []byte("\r"))
		line, s.pending = parts[0], parts[1:]
	}
	return line, nil
}
