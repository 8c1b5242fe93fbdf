#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""LAVA's own code on perfguide's output, for tests/e2e/lava.sh.

  lava_parse.py testdef FILE.yaml   validate a test definition with LAVA's
                                    schema (lava_common); exit 1 when invalid
  lava_parse.py log FILE            parse a console log with the dispatcher's
                                    lava-test-shell action, print the results
                                    it would send to the server, one JSON per line
  lava_parse.py joblog FILE OUT     write the job log LAVA would keep of that
                                    console (output.yaml): the dispatcher's
                                    ShellLogger and lava_common's YAMLLogger

Exit 77 when LAVA's Python packages are not installed.
"""
import json
import sys

try:
    import pexpect
    import yaml
    from lava_common.schemas.test import testdef as lava_testdef
    from lava_common.log import YAMLLogger
    from lava_dispatcher.actions.test.shell import TestShellAction
    from lava_dispatcher.shell import ShellLogger
except ImportError as e:
    print("SKIP: LAVA's python packages are missing (apt-get install lava-dispatcher lava-common): %s" % e,
          file=sys.stderr)
    sys.exit(77)


class Recorder:
    """Stands in for the dispatcher's YAML logger: keeps what the action
    would send as results; the rest is dropped."""

    def __init__(self):
        self.sent = []

    def results(self, data, *args, **kwargs):
        self.sent.append(data)

    def error(self, msg, *args, **kwargs):
        self.sent.append({"error": msg % args if args else msg})

    def _drop(self, *args, **kwargs):
        pass

    info = debug = warning = exception = marker = event = _drop


def parse_log(path):
    action = TestShellAction()
    rec = Recorder()
    action.logger = rec
    action.parameters = {"namespace": "common"}
    action._reset_patterns()
    # What the STARTRUN signal of the test definition's run would set.
    action.signal_director.test_uuid = "1_perfguide"
    action.definition = "perfguide"
    child = pexpect.spawn("cat", [path], encoding="utf-8", codec_errors="replace")
    try:
        while action._keep_running(child, 10, None):
            pass
    except Exception as e:  # ConnectionClosedError at the end of the log
        if type(e).__name__ != "ConnectionClosedError":
            raise
    for r in rec.sent:
        print(json.dumps(r, sort_keys=True))


def job_log(path, out):
    """The console, as a LAVA job's log keeps it: the board's output goes
    through the ShellLogger the dispatcher puts on its connection (in the
    pieces a serial line delivers, not whole lines), each line a "target"
    entry of the YAMLLogger, among the dispatcher's own entries."""
    import logging

    logger = YAMLLogger("perfguide-test")
    handler = logging.FileHandler(out, mode="w")
    handler.setFormatter(logging.Formatter("- %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    shell = ShellLogger(logger)
    logger.info("lava-test-shell: Wait for prompt ['/ #'] (timeout 00:10:00)")
    with open(path, encoding="utf-8", errors="replace") as f:
        data = f.read()
    for i in range(0, len(data), 97):
        shell.write(data[i:i + 97])
        if i % (97 * 50) == 0:
            logger.debug("Using /lava-1234")
    shell.flush(force=True)
    logger.info("ok: lava_test_shell seems to have completed")
    handler.close()


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "joblog":
        job_log(sys.argv[2], sys.argv[3])
        return 0
    if len(sys.argv) != 3 or sys.argv[1] not in ("testdef", "log"):
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "testdef":
        with open(sys.argv[2]) as f:
            data = yaml.safe_load(f)
        try:
            lava_testdef.validate(data)
        except Exception as e:
            print("invalid test definition: %s" % e, file=sys.stderr)
            return 1
        return 0
    parse_log(sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
