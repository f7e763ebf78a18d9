package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"

	"github.com/chachakit/chachakit/aead/tls13"
)

// keyUpdater sits between the crypto/tls client and its socket and, on
// request, makes the crypto/tls server take a KeyUpdate from the client
// (see the package comment for why and how).
//
// It is the net.Conn the client writes its records to, and through a
// keyLogWriter the client's Config.KeyLogWriter, from which it takes
// client_application_traffic_secret_0. Reads pass straight through. crypto/tls writes whole
// records, each Write one or more of them; keyUpdater still keeps an
// incomplete record back until the rest arrives.
type keyUpdater struct {
	net.Conn

	mu      sync.Mutex
	log     []byte // an incomplete key log line
	secret0 []byte // client_application_traffic_secret_0
	gen0    *tls13.RecordProtector
	started bool   // gen0 has opened the client's first application record
	pending []byte // the start of an incomplete record
	out     []byte // records ready to go to the socket
	scratch []byte // plaintext of the record being re-sealed

	updated     bool
	gen1        *tls13.RecordProtector
	injectedSeq uint64 // the sequence number the KeyUpdate record took
	resealed    uint64 // client records sent on under the updated key

	seals, opens uint64 // package aead calls made here, to tell them from crypto/tls's
}

// keyLogWriter is the client's Config.KeyLogWriter: it hands the key log
// lines to a keyUpdater.
type keyLogWriter struct{ k *keyUpdater }

func (w keyLogWriter) Write(b []byte) (int, error) { return w.k.keyLog(b) }

// keyLog collects key log lines and keeps client_application_traffic_secret_0.
func (k *keyUpdater) keyLog(b []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.log = append(k.log, b...)
	for {
		i := bytes.IndexByte(k.log, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := string(k.log[:i])
		k.log = k.log[i+1:]
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "CLIENT_TRAFFIC_SECRET_0" {
			continue
		}
		secret, err := hex.DecodeString(f[2])
		if err != nil {
			return 0, fmt.Errorf("key log: %w", err)
		}
		p, err := tls13.NewRecordProtector(secret)
		if err != nil {
			return 0, fmt.Errorf("key log: %w", err)
		}
		k.secret0, k.gen0 = secret, p
	}
}

// Write forwards the client's records to the socket: unchanged before the
// KeyUpdate, opened with the old key and sealed with the new one after it.
// Before the KeyUpdate it follows the client's sequence number: the first
// application_data record that the traffic key opens is number 0 (the
// records before it, such as Finished, are under handshake keys), and each
// later one adds one.
func (k *keyUpdater) Write(b []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.pending = append(k.pending, b...)
	for len(k.pending) >= tls13.RecordHeaderLen {
		n := tls13.RecordHeaderLen + int(binary.BigEndian.Uint16(k.pending[3:5]))
		if len(k.pending) < n {
			break
		}
		if err := k.record(k.pending[:n]); err != nil {
			return 0, err
		}
		k.pending = k.pending[n:]
	}
	if len(k.pending) == 0 {
		k.pending = nil
	}
	if len(k.out) > 0 {
		_, err := k.Conn.Write(k.out)
		k.out = k.out[:0]
		if err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// record handles one whole record, appending what is to be sent to k.out.
func (k *keyUpdater) record(rec []byte) error {
	if !k.updated {
		if rec[0] == tls13.RecordTypeApplicationData && k.gen0 != nil {
			if k.started {
				k.gen0.SetSequence(k.gen0.Sequence() + 1)
			} else {
				k.opens++
				_, _, err := k.gen0.OpenRecord(k.scratch[:0], rec)
				k.started = err == nil
			}
		}
		k.out = append(k.out, rec...)
		return nil
	}
	if rec[0] != tls13.RecordTypeApplicationData {
		return fmt.Errorf("keyupdater: unprotected record of type %d after the handshake", rec[0])
	}
	k.opens++
	typ, pt, err := k.gen0.OpenRecord(k.scratch[:0], rec)
	if err != nil {
		return fmt.Errorf("keyupdater: client record %d: %w", k.gen0.Sequence(), err)
	}
	k.scratch = pt[:0]
	k.seals++
	k.out, err = k.gen1.SealRecord(k.out, typ, pt, 0)
	if err != nil {
		return fmt.Errorf("keyupdater: re-sealing: %w", err)
	}
	k.resealed++
	return nil
}

// inject writes a KeyUpdate(update_requested) record into the
// client-to-server stream, sealed under the client's current key with the
// next sequence number, and from then on re-seals the client's records
// under the next key: HKDF-Expand-Label(secret, "traffic upd", "", 32)
// (RFC 8446, Section 7.2). The client must not be writing at the time; the
// lock keeps a concurrent Write from splitting, but not from reordering.
func (k *keyUpdater) inject() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.started {
		return errors.New("the client has sent no application data under its traffic key yet")
	}
	if k.updated || len(k.pending) > 0 {
		return errors.New("keyupdater: not in a state to inject")
	}
	seq := k.gen0.Sequence()
	// HandshakeType key_update(24), a 24-bit length of 1, and
	// KeyUpdateRequest update_requested(1) (RFC 8446, Section 4.6.3).
	msg := []byte{24, 0, 0, 1, 1}
	k.seals++
	rec, err := k.gen0.SealRecord(nil, tls13.RecordTypeHandshake, msg, 0)
	if err != nil {
		return err
	}
	// The client itself does not know of this record: its next one takes
	// the same sequence number under the old key.
	k.gen0.SetSequence(seq)
	secret1, err := tls13.ExpandLabel(k.secret0, "traffic upd", nil, tls13.SecretSize)
	if err != nil {
		return err
	}
	if k.gen1, err = tls13.NewRecordProtector(secret1); err != nil {
		return err
	}
	if _, err := k.Conn.Write(rec); err != nil {
		return err
	}
	k.updated, k.injectedSeq = true, seq
	return nil
}
