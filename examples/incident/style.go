package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// style renders the transcript: colours and a spinner only on a terminal,
// and never when NO_COLOR is set (https://no-color.org).
type style struct {
	tty    bool
	colour bool
}

func styleFor(w io.Writer) style {
	f, ok := w.(*os.File)
	if !ok {
		return style{}
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return style{}
	}
	return style{tty: true, colour: os.Getenv("NO_COLOR") == ""}
}

func (s style) paint(code, text string) string {
	if !s.colour {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s style) bold(t string) string   { return s.paint("1", t) }
func (s style) dim(t string) string    { return s.paint("2", t) }
func (s style) green(t string) string  { return s.paint("32", t) }
func (s style) yellow(t string) string { return s.paint("33", t) }
func (s style) red(t string) string    { return s.paint("31", t) }
func (s style) cyan(t string) string   { return s.paint("36", t) }

// status colours a call status.
func (s style) status(st string) string {
	switch st {
	case "ok":
		return s.green(st)
	case "repaired":
		return s.yellow(st)
	case "rejected", "error":
		return s.red(st)
	}
	return st
}

// spinner shows progress on a terminal; elsewhere it prints one plain line
// at the start and nothing else, so logs stay clean.
type spinner struct {
	w    io.Writer
	msg  string
	stop chan struct{}
	done sync.WaitGroup
}

func startSpinner(w io.Writer, st style, msg string) *spinner {
	sp := &spinner{w: w, msg: msg, stop: make(chan struct{})}
	if !st.tty {
		fmt.Fprintln(w, msg+" …")
		return sp
	}
	sp.done.Add(1)
	go func() {
		defer sp.done.Done()
		frames := []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
		start := time.Now()
		t := time.NewTicker(80 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			fmt.Fprintf(w, "\r%c %s %.1fs", frames[i%len(frames)], msg, time.Since(start).Seconds())
			select {
			case <-sp.stop:
				fmt.Fprint(w, "\r\x1b[K")
				return
			case <-t.C:
			}
		}
	}()
	return sp
}

// Stop ends the spinner and clears its line.
func (sp *spinner) Stop() {
	select {
	case <-sp.stop:
	default:
		close(sp.stop)
	}
	sp.done.Wait()
}
