// Package redistest starts a real redis-server for tests.
//
// A test package starts one server in TestMain and shares it between its tests;
// each test keeps its keys apart with its own prefix from Prefix, so tests can
// run in parallel against the same server:
//
//	var srv *redistest.Server
//
//	func TestMain(m *testing.M) {
//		s, err := redistest.Start()
//		if err != nil {
//			fmt.Fprintln(os.Stderr, err)
//			os.Exit(1)
//		}
//		srv = s
//		code := m.Run()
//		s.Close()
//		os.Exit(code)
//	}
//
// A test of code that owns a whole database (one that counts or scans every
// key) takes a database of the shared server with TakeDB instead.
//
// The server listens only on a unix socket in a fresh temporary directory
// (no TCP port) and keeps nothing on disk, unless started WithAppendOnly: then
// it survives Kill (SIGKILL) and Start like a production Redis with an
// append-only file. Tests of outages start a server of their own.
package redistest
