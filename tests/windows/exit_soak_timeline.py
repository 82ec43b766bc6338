#!/usr/bin/env python3
"""The timeline of each run of an exit soak (tests/windows/exit_soak.sh with --linger-seconds,
--log-level debug among tfwsl.exe's arguments and --winedebug +seh,+tid,+pid,+timestamp,+thread,+process),
read from Wine's trace in its kept logs: when the agent's wsl.exe stand-in ended, when the lingering
grandchild holding tfwsl.exe's pipes ended, when tfwsl.exe's pipe readers ended and when tfwsl.exe
itself did (its main thread's thread-data teardown, RtlProcessFlsData flags 0x1, in ExitProcess).
docs/building.md, "The exit page fault, and its soak".

  exit_soak_timeline.py LOGDIR...      one line per run, then a summary line per folder

Per run: whether the channel's debug line "pipes are still open after it exited" is there (the 2 s
wait ran out), and the readers' ends in ms before tfwsl.exe's (the threads of tfwsl.exe, besides its
main thread and the one that started the agent, ending later than 1.5 s after the stand-in); a run
whose wait ran out and whose readers did not end before tfwsl.exe's exit had them blocked in a read
as it exited (or returning from it, where the grandchild ended first). Thread ids are Wine's (+tid), timestamps its own (+timestamp, seconds).
"""
import pathlib
import re
import sys

TRACE = re.compile(r'(\d+\.\d+):([0-9a-f]{4}):([0-9a-f]{4}):((?:trace|warn|fixme|err):.*)$')
STARTED = re.compile(r'CreateProcessInternalW started process pid ([0-9a-f]{4})')


def analyse(path):
    lines = path.read_text(errors='replace').splitlines()
    run = {'run': path.name, 'pipes_open': any('pipes are still open after it exited' in l for l in lines)}
    tfwsl = launcher = standin = grandchild = None
    pending, main_tid, ends, last_end = {}, {}, [], {}
    for line in lines:
        m = TRACE.search(line)  # a trace line may follow output that had no newline yet
        if not m:
            continue
        ts, pid, tid, rest = float(m[1]), m[2], m[3], m[4]
        main_tid.setdefault(pid, tid)
        if 'CreateProcessInternalW app (null) cmdline' in rest:
            if '--exec' in rest and 'tfwsl-agent serve' in rest:
                tfwsl, launcher = pid, tid
                pending[(pid, tid)] = 'standin'
            elif '--standin-linger' in rest:
                pending[(pid, tid)] = 'grandchild'
        started = STARTED.search(rest)
        if started and (pid, tid) in pending:
            kind = pending.pop((pid, tid))
            if kind == 'standin' and standin is None:
                standin = started[1]
            elif kind == 'grandchild':
                grandchild = started[1]
        if 'RtlProcessFlsData' in rest and 'flags 0x1' in rest:
            ends.append((ts, pid, tid))
            last_end[pid] = ts
    s_end, t_end, g_end = last_end.get(standin), last_end.get(tfwsl), last_end.get(grandchild)
    if not (s_end and t_end):
        return run
    run['tfwsl_end_after_standin_ms'] = round((t_end - s_end) * 1000)
    if g_end:
        run['grandchild_end_minus_tfwsl_end_ms'] = round((g_end - t_end) * 1000)
    run['readers_end_before_exit_ms'] = [round((t_end - ts) * 1000) for ts, pid, tid in ends
                                         if pid == tfwsl and tid not in (main_tid[pid], launcher) and ts > s_end + 1.5]
    return run


def main():
    for folder in sys.argv[1:]:
        runs = [analyse(p) for p in sorted(pathlib.Path(folder).glob('run-*.txt'),
                                           key=lambda p: int(p.stem.split('-')[1]))]
        for r in runs:
            print(' '.join(f'{k}={v}' for k, v in r.items()))
        timed = [r for r in runs if 'readers_end_before_exit_ms' in r]
        waited = [r for r in timed if r['pipes_open']]
        ended = [r for r in waited if r['readers_end_before_exit_ms']]
        close = sorted(min(r['readers_end_before_exit_ms']) for r in ended)
        alive = [r for r in waited if not r['readers_end_before_exit_ms']]
        returning = [r for r in alive if r.get('grandchild_end_minus_tfwsl_end_ms', 1) < 0]
        print(f'# {folder}: runs={len(runs)} timed={len(timed)} pipes-open={len(waited)}'
              f' readers-ended-before-exit={len(ended)} (ms before: {close})'
              f' readers-alive-at-exit={len(alive)} (of which the pipes had closed before the exit,'
              f' the readers returning from their read: {len(returning)})')


if __name__ == '__main__':
    main()
