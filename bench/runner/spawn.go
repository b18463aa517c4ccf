package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// The measured commands are started by a small process of the runner's
// own, the spawner, started before the runner holds anything large. Go
// starts a command with vfork: until it execs, the command shares the
// memory of the process that starts it, and Linux counts that memory's
// peak in the command's peak RSS. Started by the runner itself once it
// holds the users body or the generated catalog, every command would show
// the runner's own peak.

// spawnFlag makes the runner's binary act as the spawner.
const spawnFlag = "-spawner"

// spawnRequest is one command for the spawner to run.
type spawnRequest struct {
	Argv  []string `json:"argv"`
	Env   []string `json:"env"`
	Stdin string   `json:"stdin,omitempty"` // a file fed to the command
}

// spawnResult is how it went.
type spawnResult struct {
	Wall   time.Duration `json:"wall"`
	RSS    int64         `json:"rss"` // peak resident memory, bytes
	Err    string        `json:"err,omitempty"`
	Stderr string        `json:"stderr,omitempty"`
}

// serveSpawns runs the requests read from stdin one at a time, writing a
// result for each on stdout, until stdin ends.
func serveSpawns() error {
	dec := json.NewDecoder(bufio.NewReader(os.Stdin))
	enc := json.NewEncoder(os.Stdout)
	for {
		var req spawnRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := enc.Encode(spawn(req)); err != nil {
			return err
		}
	}
}

func spawn(req spawnRequest) spawnResult {
	cmd := exec.Command(req.Argv[0], req.Argv[1:]...)
	cmd.Env = req.Env
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if req.Stdin != "" {
		f, err := os.Open(req.Stdin)
		if err != nil {
			return spawnResult{Err: err.Error()}
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	res := spawnResult{Wall: time.Since(start), Stderr: stderr.String()}
	if err != nil {
		res.Err = err.Error()
	}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			res.RSS = ru.Maxrss * 1024
		}
	}
	return res
}

// spawner is the runner's end of the spawner process.
type spawner struct {
	cmd *exec.Cmd
	enc *json.Encoder
	dec *json.Decoder
	in  io.Closer
}

// startSpawner starts the spawner from the runner's own binary.
func startSpawner() (*spawner, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the runner's binary: %w", err)
	}
	cmd := exec.Command(exe, spawnFlag)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the spawner: %w", err)
	}
	return &spawner{cmd: cmd, enc: json.NewEncoder(in), dec: json.NewDecoder(out), in: in}, nil
}

// run has the spawner run one command.
func (s *spawner) run(req spawnRequest) (spawnResult, error) {
	if err := s.enc.Encode(req); err != nil {
		return spawnResult{}, fmt.Errorf("send to the spawner: %w", err)
	}
	var res spawnResult
	if err := s.dec.Decode(&res); err != nil {
		return spawnResult{}, fmt.Errorf("read from the spawner: %w", err)
	}
	return res, nil
}

// stop ends the spawner.
func (s *spawner) stop() {
	s.in.Close()
	_ = s.cmd.Wait()
}
