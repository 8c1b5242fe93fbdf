#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 40, defect 5: bash completion inserts what it completes quoted.
# Completing a results file named 'r1;touch PWNED;.jsonl' and pressing
# Enter ran touch. Here an interactive bash in a pseudo-terminal (python3's
# pty module) types the start of hostile names, TAB, Enter, for each place
# completion offers files (report, import, compare, -o, --db), and nothing
# may run; the name must reach perfguide whole.
. "$(dirname "$0")/lib.sh"
need_python
command -v bash >/dev/null 2>&1 || skip "bash is not installed"
mkdir "$T/bin" "$T/w"
# perfguide on PATH as the command the completion is for, logging its
# arguments one per line
cat >"$T/bin/perfguide" <<SH
#!/bin/sh
for a in "\$@"; do printf '%s\n' "\$a"; done >>"$T/args"
case "\$1" in help|list) exec "$PG" "\$@" ;; esac
exit 0
SH
chmod +x "$T/bin/perfguide"

cat >"$T/session.py" <<'PY'
import os, pty, select, shlex, sys, time
comp, workdir, args = sys.argv[1], sys.argv[2], sys.argv[3]
names = ["r1;touch PWNED;.jsonl", "r2$(touch PWNED).jsonl", "r3`touch PWNED`.jsonl", "r4'x;touch PWNED;'.jsonl"]
lines = ["perfguide report r", "perfguide import r", "perfguide compare r", "perfguide report -o r",
         "perfguide runs --db r"]
pid, fd = pty.fork()
if pid == 0:
    os.chdir(workdir)
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
out = b""
def wait_for(mark, t=10):
    global out
    end = time.time() + t
    while time.time() < end and mark not in out:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return mark in out
n = 0
def run(cmd):
    global n
    n += 1
    os.write(fd, ("%s; echo @@''%d@@\n" % (cmd, n)).encode())
    if not wait_for(b"@@%d@@" % n):
        sys.exit("no answer to %r: %s" % (cmd, out[-400:]))
run("PS1='$ '; bind 'set bell-style none'; . %s" % shlex.quote(comp))
bad = 0
for name in names:
    for line in lines:
        run("rm -f -- * %s; touch -- %s" % (shlex.quote(args), shlex.quote(name)))
        start = len(out)
        os.write(fd, (line + "\t").encode())
        wait_for(b".jsonl", 3)
        os.write(fd, b"\n")
        run("true")
        if os.path.exists(os.path.join(workdir, "PWNED")):
            print("FAIL: %r + TAB completing %r ran a command: %s" % (line, name, out[start:].decode("utf-8", "replace")))
            bad = 1
        got = open(args).read().splitlines() if os.path.exists(args) else []
        if name not in got:
            print("FAIL: %r + TAB: perfguide did not get %r whole: %r" % (line, name, got))
            bad = 1
os.write(fd, b"exit\n")
wait_for(b"exit", 2)
os.waitpid(pid, 0)
sys.exit(bad)
PY

env PATH="$T/bin:$PATH" HOME="$T" python3 "$T/session.py" "$PG_SOURCE_DIR/completion/perfguide" "$T/w" "$T/args" \
	>"$T/pty.out" 2>&1 || fail "$(head -c 2000 "$T/pty.out")"
echo ok
