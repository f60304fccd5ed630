#!/usr/bin/env python3
"""slowdown: runs that slow down, and restarts that refresh them
(tests/CMakeLists.txt: cli-slowdown). Usage: check_slowdown.py TRAINMC.

The model, as the issue states it. A step that starts at t takes
f(h) Y + F, Y the slowest card's time (jitter and periodic pauses
included), F = exposed_comm_s + input_wait_s, h = (t - t_fresh) / 3600 the
hours since the last (re)start; f(h) = 1 + a h (slowdown.per_hour = a), or
1 + m (1 - exp(-a h / m)) with slowdown.max_extra = m. With
slowdown.refresh_hours (R = refresh_hours x 3600 s) compute must stop at
L = t_fresh + R - c (c = checkpoint.save_s): a step that would end after L is
cut (its time from its start to L is lost work), the steps since the last
commit are saved from L to L + c and commit, and the job restarts for
refresh_s (default checkpoint.restore_s); a segment whose compute ends by L
but whose save ends at or after L refreshes right after that commit. No
refresh after the run's last commit. t_fresh: 0, then the end of every
completed restore (failure, outage, refresh). Segments end on multiples of
K = checkpoint.interval_steps (after a refresh's save at step j, the next
runs to the next multiple of K). Failures and outages strike compute, saves
and restores (refresh restarts included: the failure's own recovery, then a
checkpoint.restore_s restore whose end is t_fresh), not the time down; an
arrival while down is dropped; a struck restore starts again.

`replay` below is that model written apart, event by event: the
deterministic cases replay given arrivals, case 3 draws Poisson ones. It
counts a refresh when the refresh restart begins (after the refresh save
commits), whether or not something strikes that restart. Every case keeps
the instant L at least 5 s from any step's end and any save's end the
decision compares with it (the margins are checked below), so rounding
cannot change an outcome. The case where no step completes between the
last commit and L (the first step of a segment would end after L) is one
the issue leaves open; the checked cases avoid it (replay reports it), and
case 5 prints what trainmc does there without checking it.

1. By hand, deterministic (1 card, jitter cv 0, no failures, 3 replicas;
   S = 120 steps, Y = 50 s (flop_per_step = Y x peak x cards, efficiency
   1), F = 3 s (exposed_comm_s 2 + input_wait_s 1), K = 10, c = 120 s,
   restore 200 s). For each, split_days.wall and completion_days.mean
   against the replay to 1e-6 relative; the rows useful_compute (S Y),
   comm_input (S F), saves (commits x c), lost_work (the cut steps'
   partial times), slowdown (sum over committed steps of (f - 1) Y),
   refresh_restarts (refreshes x refresh_s), straggler_wait (0) to
   1e-6 x wall; events.saves and events.refreshes exact; the rows add up
   to wall (1e-6 x wall).
   (a) linear, a = 0.3 per hour, no refresh: 12 commits, wall 10,058.676
       s, slowdown 2,258.676 s (f reaches 1.83).
   (b) linear a = 0.3, refresh_hours 0.5, refresh_s 250: 4 refreshes, 2 of
       them with a step cut at L, 2 right after a commit whose save ends
       past L; 14 commits, lost 72.681 s (the cut steps' partial times),
       wall 9,485.954 s, slowdown 373.272 s; L at least 23.5 s from every
       decision.
   (c) saturating, a = 0.6, max_extra 0.25, no refresh: wall 9,020.003 s,
       slowdown 1,220.003 s; (d) the same with refresh_hours 0.65 and
       refresh_s left to its default (restore_s, 200 s): 3 refreshes (3
       cuts), wall 9,546.620 s, slowdown 644.149 s, lost 142.470 s.
   (e) pauses of 40 s (all cards) every 7 steps, a = 0.3, refresh_hours
       0.7, refresh_s 250: the pause is part of Y, so the drift multiplies
       it: wall 10,259.257 s, slowdown 585.897 s, 3 refreshes, pauses row
       17 x 40 s.
   (f) jitter (8 cards, normal cv 0.2, steps mode, no failures, no
       refresh, 200 replicas): the same draws with and without a drift of
       0.3 per hour, so straggler_wait is the same (1e-9 relative: it no
       longer holds the drift) and wall(drift) - wall(none) = the slowdown
       row (1e-6 x wall).
2. Outages replayed from a trace (outages.trace, times in days, downtime
   500 s, restore 200 s) on case 1's job, exact by the replay (1e-6
   relative; first the replay at a = 0 against trainmc without the
   section: 10,850 s, 10,250 s, 8,800 s and 8,700 s, the arrivals' rules
   the replay's):
   (a) a = 0.3, no refresh, outages at 2,400 s (compute), 2,700
   s (while down: dropped), 3,000 s (in the restore: down again, a new
   restore), 4,300 s (in a save): 3 outages, wall 12,055.868 s, the drift
   clock restarting at 3,700 s and 5,000 s; (b) case 1(b) with outages at
   1,900 s (in the first refresh restart, 1,800 to 2,050 s: down to 2,400
   s, restore to 2,600 s, the new t_fresh) and 5,000 s: wall 11,117.037
   s, refreshes 4 (the struck one counted); (c) loss spikes from a trace
   (loss_spikes.trace; rollback 1, no downtime) at 2,400 s and 6,000 s, both
   in compute, a = 0.3: wall 9,792.631 s, the drift clock restarting at
   2,600 s and at the second spike's restore; (d) a time limit
   (wall_hours 1.5, requeue_s 500, at_limit lose), a = 0.3: the limit at
   5,400 s strikes compute, down 500 s, restore to 6,100 s (the new
   t_fresh), the next allocation's limit (11,300 s) after the run's end:
   wall 9,692.631 s. Wall, events.outages, loss_spikes, requeues and
   refreshes, outage_downtime and requeue_wait (500 s each), slowdown and
   the rows' sum. The phases struck are checked in the replay, and
   each arrival moved 5 s either way moves its wall by as much and strikes
   the same phases (checked): no outcome rests on a near tie.
3. Against the replay with Poisson failures (4 cards of exponential
   lifetimes of mean 8 h: the job's failures a Poisson process of mean 2
   h; no causes, so no detection delay), S = 300, Y = 30 s, F = 2 s, K =
   2, c = 40 s, restore 300 s, a = 0.5 per hour, refresh_hours 1.05,
   refresh_s 120 (about 3.2 refreshes and 2.6 failures a run, 1.6 % of
   the refresh restarts struck). With K = 2 the steps after a restart
   follow one of two timelines, by the parity of the step restarted from,
   so where L falls is fixed: after a cut of one step (even) or after a
   commit (odd), 21.9 s and 19.7 s from the nearest decision (checked).
   4,000 replicas of each (trainmc seed 7, the replay seed 5): the mean
   wall within 4 combined SE (trainmc's completion_days.se and the
   replay's sd / sqrt(n)); the mean refreshes, card failures and slowdown
   row within 4 combined SE (the replay's sd / sqrt(n) taken for both
   sides, as trainmc gives no SE of these means: sqrt(2) sd / sqrt(n)).
4. Refusals (exit 2, no JSON, the key named in the message): slowdown with
   elastic groups; with a progress section; refresh_hours with
   checkpoint.mode async (async without a refresh runs); refresh_hours x
   3,600 <= save_s (36 s against saves of 40 s and of 36 s); per_hour
   missing or negative; max_extra 0; refresh_hours 0; refresh_s -1.
   per_hour 0 without refresh: T mean, sd and events (refreshes 0 aside)
   identical to the same experiment without the section, both steps mode
   (8 cards, jitter cv 0.1, failures with two causes, Poisson outages and
   loss spikes, pauses; 300 replicas), and the split rows the same (the
   two new rows and events.refreshes 0 in both runs, or absent without the
   section).
5. Case 1's job with refresh_hours 0.55, where one refresh's first step
   would end past L (L comes 24.5 s after a commit): with nothing to save
   the job restarts at L (docs/reference/simulation-semantics.md 12, rule
   4), so trainmc's wall, refreshes and lost work equal the replay's
   "at_l" reading exactly (9,495.874 s); the other reading (the time to L +
   c lost, as a time limit's emergency save with nothing to save) is
   printed beside it (9,615.874 s)."""
import math
import os
import random
import sys
import tempfile

from cli_checks import check, finish, run_json

BIN = sys.argv[1]
DAY = 86400.0
REL = 1e-6
PEAK = 1e15

# case 1's job
S1, Y1, F1, K1, C1, R1 = 120, 50.0, 3.0, 10, 120.0, 200.0


def experiment(name, steps, cards, step_s, comm_s, input_s, k, save_s, restore_s, slowdown,
               replicas=3, seed=1, **sections):
    x = {
        "name": name,
        "source": "hand-derived (tests/check_slowdown.py)",
        "job": {"steps": steps, "cards": cards, "flop_per_step": step_s * PEAK * cards,
                "peak_flops": PEAK, "efficiency": 1, "exposed_comm_s": comm_s,
                "input_wait_s": input_s},
        "jitter": {"distribution": "normal", "cv": 0},
        "checkpoint": {"interval_steps": k, "save_s": save_s, "restore_s": restore_s},
        "deadline": {"days": 30},
        "monte_carlo": {"replicas": replicas, "seed": seed},
    }
    if slowdown is not None:
        x["slowdown"] = slowdown
    x.update(sections)
    return x


def factor(h, a, m):
    if m is None:
        return 1.0 + a * h
    return 1.0 + m * (1.0 - math.exp(-a * h / m))


class Trace:
    """Arrivals at given times (s), each (time, kind)."""

    def __init__(self, items=()):
        self.items, self.i = sorted(items), 0

    def peek(self):
        return self.items[self.i][0] if self.i < len(self.items) else math.inf

    def kind(self):
        return self.items[self.i][1]

    def pop(self):
        self.i += 1


class Poisson:
    """Failures of rate `rate` per second (memoryless: nothing to renew)."""

    def __init__(self, rate, rng):
        self.rate, self.rng = rate, rng
        self.t = rng.expovariate(rate)

    def peek(self):
        return self.t

    def kind(self):
        return "failure"

    def pop(self):
        self.t += self.rng.expovariate(self.rate)


def replay(steps, y, fixed, k, c, restore_s, a, m=None, r_s=None, refresh_s=None,
           arrivals=None, downtime_s=0.0, pause_every=0, pause_s=0.0, zero_step=None,
           done0=0, stop_at_refresh=False):
    """One run of the model above. y: the slowest card's time of a step
    (without pauses); a pause of pause_s on steps pause_every, 2
    pause_every, ... (1-based). zero_step: None (count it only), "save"
    or "at_l" (case 5's readings). done0: the step the run starts from;
    stop_at_refresh: stop at the first refresh. Returns a dict of totals
    (s) and counts; margin: the least distance of L from a step's end or
    a save's end compared with it."""
    # downtime_s: an outage's, or a time limit's requeue (kind "limit")
    arrivals = arrivals or Trace()
    refresh_s = restore_s if refresh_s is None else refresh_s
    st = dict(wall=0.0, slowdown=0.0, lost=0.0, saves=0, refreshes=0, refresh_time=0.0,
              cuts=0, after_save=0, zero_step=0, failures=0, outages=0, spikes=0, limits=0,
              down_outage=0.0, down_limit=0.0, down_failure=0.0, down_spike=0.0,
              restore_time=0.0, struck_refresh=0, margin=math.inf, phases=[])
    t, fresh, done = 0.0, 0.0, done0

    def recover(at):
        """Struck at `at`: down, then restores until one is not struck."""
        while True:
            kind = arrivals.kind()
            arrivals.pop()
            down = downtime_s if kind in ("outage", "limit") else 0.0
            st[kind + "s"] += 1
            st["down_" + kind] += down
            up = at + down
            while arrivals.peek() < up:  # dropped while down
                arrivals.pop()
            if arrivals.peek() < up + restore_s:
                st["phases"].append("restore")
                st["restore_time"] += arrivals.peek() - up
                at = arrivals.peek()
                continue
            st["restore_time"] += restore_s
            return up + restore_s

    def refresh_restart(at):
        st["refreshes"] += 1
        if arrivals.peek() < at + refresh_s:
            st["phases"].append("refresh restart")
            st["struck_refresh"] += 1
            st["refresh_time"] += arrivals.peek() - at
            return recover(arrivals.peek())
        st["refresh_time"] += refresh_s
        return at + refresh_s

    while done < steps:
        seg_start = t
        target = min((done // k + 1) * k, steps)
        lim = fresh + r_s - c if r_s else math.inf
        i, pending, struck, cut = done, 0.0, None, False
        while i < target:
            yi = y + (pause_s if pause_every and (i + 1) % pause_every == 0 else 0.0)
            f = factor((t - fresh) / 3600.0, a, m)
            end = t + f * yi + fixed
            if lim < math.inf:
                st["margin"] = min(st["margin"], abs(end - lim))
            if end > lim:
                if arrivals.peek() < lim:
                    struck = arrivals.peek()
                    st["phases"].append("compute")
                else:
                    cut = True
                break
            if arrivals.peek() < end:
                struck = arrivals.peek()
                st["phases"].append("compute")
                break
            t, pending, i = end, pending + (f - 1.0) * yi, i + 1
        if struck is None and cut and i == done:
            st["zero_step"] += 1
            if zero_step == "at_l":
                st["lost"] += lim - seg_start
                t = fresh = refresh_restart(lim)
                continue
            if zero_step == "save":  # nothing to save: the save's time lost too
                st["lost"] += lim + c - seg_start
                t = fresh = refresh_restart(lim + c)
                continue
        if struck is None:
            partial = 0.0
            if cut:
                partial, t = lim - t, lim
                st["cuts"] += 1
            if arrivals.peek() < t + c:
                struck = arrivals.peek()
                st["phases"].append("save")
            else:
                t += c
                done = i
                st["saves"] += 1
                st["slowdown"] += pending
                st["lost"] += partial
                if not cut and done < steps and lim < math.inf:
                    st["margin"] = min(st["margin"], abs(t - lim))
                if cut or (done < steps and t >= lim):
                    st["after_save"] += not cut
                    if stop_at_refresh:
                        break
                    t = fresh = refresh_restart(t)
                continue
        st["lost"] += struck - seg_start
        t = fresh = recover(struck)
    st["wall"] = t
    return st


def run(tmp, x, *args):
    p, doc = run_json(BIN, tmp, x, *args)
    if doc is None:
        check(False, f"{x['name']} {args}: exit {p.returncode}, {p.stderr.strip()!r}")
    return doc


def split_s(doc):
    return {key: v * DAY for key, v in doc["split_days"].items()}


def rows_add_up(what, split):
    total = sum(v for key, v in split.items() if key != "wall")
    check(abs(total - split["wall"]) <= REL * split["wall"],
          f"{what}: the rows add up to {total:.6f} s, wall {split['wall']:.6f} s")


def near(what, got, want, scale):
    check(abs(got - want) <= REL * scale, f"{what}: trainmc {got:.6f}, replay {want:.6f}")


def compare_exact(what, doc, want, steps, y, fixed, refresh_s, pause_total=0.0):
    """A deterministic run against the replay's totals `want`."""
    if doc is None:
        return
    sp = split_s(doc)
    wall = want["wall"]
    near(f"{what}: wall", sp["wall"], wall, wall)
    near(f"{what}: completion mean", doc["completion_days"]["mean"] * DAY, wall, wall)
    near(f"{what}: slowdown row", sp.get("slowdown", math.nan), want["slowdown"], wall)
    near(f"{what}: useful_compute", sp["useful_compute"], steps * y, wall)
    near(f"{what}: comm_input", sp["comm_input"], steps * fixed, wall)
    near(f"{what}: lost_work", sp["lost_work"], want["lost"], wall)
    near(f"{what}: saves row", sp["saves"], want["saves"] * C1, wall)
    near(f"{what}: straggler_wait", sp["straggler_wait"], 0.0, wall)
    near(f"{what}: pauses", sp["pauses"], pause_total, wall)
    if not want["struck_refresh"]:
        near(f"{what}: refresh_restarts row", sp.get("refresh_restarts", math.nan),
             want["refreshes"] * refresh_s, wall)
    ev = doc["events"]
    check(ev["saves"] == want["saves"], f"{what}: events.saves {ev['saves']}, replay "
                                        f"{want['saves']}")
    check(ev.get("refreshes") == want["refreshes"],
          f"{what}: events.refreshes {ev.get('refreshes')}, replay {want['refreshes']}")
    rows_add_up(what, sp)
    print(f"{what}: wall {sp['wall']:.3f} s (replay {wall:.3f}), slowdown "
          f"{sp.get('slowdown', math.nan):.3f} s (replay {want['slowdown']:.3f}), refreshes "
          f"{ev.get('refreshes')} (replay {want['refreshes']}: {want['cuts']} cut, "
          f"{want['after_save']} after a commit), lost {sp['lost_work']:.3f} s")


def case_job(name, slowdown, **sections):
    return experiment(name, S1, 1, Y1, 2.0, 1.0, K1, C1, R1, slowdown, **sections)


def by_hand(tmp):
    cases = (
        ("1a linear", {"per_hour": 0.3}, dict(a=0.3)),
        ("1b linear, refresh", {"per_hour": 0.3, "refresh_hours": 0.5, "refresh_s": 250},
         dict(a=0.3, r_s=1800.0, refresh_s=250.0)),
        ("1c saturating", {"per_hour": 0.6, "max_extra": 0.25}, dict(a=0.6, m=0.25)),
        ("1d saturating, refresh", {"per_hour": 0.6, "max_extra": 0.25, "refresh_hours": 0.65},
         dict(a=0.6, m=0.25, r_s=0.65 * 3600)),
    )
    for what, section, kw in cases:
        want = replay(S1, Y1, F1, K1, C1, R1, **kw)
        if "r_s" in kw:
            check(want["cuts"] >= 1 and want["zero_step"] == 0 and want["margin"] > 5,
                  f"{what}: the case itself: {want}")
        doc = run(tmp, case_job(what, section))
        compare_exact(what, doc, want, S1, Y1, F1, kw.get("refresh_s", R1))
    want = replay(S1, Y1, F1, K1, C1, R1, 0.3, r_s=1800.0)
    check(want["refreshes"] == 4 and want["cuts"] == 2 and want["after_save"] == 2,
          f"1b: the case itself: {want}")
    # 1e: periodic pauses are part of Y
    kw = dict(a=0.3, r_s=0.7 * 3600, refresh_s=250.0, pause_every=7, pause_s=40.0)
    want = replay(S1, Y1, F1, K1, C1, R1, **kw)
    check(want["zero_step"] == 0 and want["margin"] > 5, f"1e: the case itself: {want}")
    x = case_job("1e pauses", {"per_hour": 0.3, "refresh_hours": 0.7, "refresh_s": 250},
                 pauses={"every_steps": 7, "duration_s": 40.0, "cards": "all"})
    compare_exact("1e pauses", run(tmp, x), want, S1, Y1, F1, 250.0,
                  pause_total=(S1 // 7) * 40.0)


def jitter_identity(tmp):
    """1f: with jitter the same draws with and without the drift."""
    docs = []
    for sd in (None, {"per_hour": 0.3}):
        x = experiment("1f jitter", 400, 8, 20.0, 1.0, 0.5, 10, 30.0, 100.0, sd,
                       replicas=200, seed=11)
        x["jitter"] = {"distribution": "normal", "cv": 0.2}
        docs.append(run(tmp, x, "--set", "monte_carlo.mode=steps"))
    if None in docs:
        return
    plain, drift = split_s(docs[0]), split_s(docs[1])
    check(abs(plain["straggler_wait"] - drift["straggler_wait"]) <= 1e-9 * plain["wall"],
          f"1f: straggler_wait {drift['straggler_wait']:.6f} s with the drift, "
          f"{plain['straggler_wait']:.6f} s without")
    extra = drift["wall"] - plain["wall"]
    check(abs(extra - drift.get("slowdown", math.nan)) <= REL * drift["wall"],
          f"1f: wall grows by {extra:.6f} s, slowdown row {drift.get('slowdown')}")
    rows_add_up("1f", drift)
    print(f"1f jitter: straggler wait {plain['straggler_wait']:.3f} s both; wall +{extra:.3f} s, "
          f"slowdown row {drift.get('slowdown', math.nan):.3f} s")


def outages(tmp):
    cases = (("2a outages", {"per_hour": 0.3}, dict(a=0.3), (2400, 2700, 3000, 4300),
              "outage", ["compute", "restore", "save"]),
             ("2b outages, refresh", {"per_hour": 0.3, "refresh_hours": 0.5, "refresh_s": 250},
              dict(a=0.3, r_s=1800.0, refresh_s=250.0), (1900, 5000), "outage",
              ["refresh restart", "compute"]),
             ("2c spikes", {"per_hour": 0.3}, dict(a=0.3), (2400, 6000), "spike",
              ["compute", "compute"]),
             ("2d time limit", {"per_hour": 0.3}, dict(a=0.3), (5400,), "limit", ["compute"]))
    for what, section, kw, times, kind, phases in cases:
        csv = os.path.join(tmp, "outages.csv")
        with open(csv, "w") as f:
            f.write("time_days\n" + "".join(f"{s / DAY!r}\n" for s in times))
        want = replay(S1, Y1, F1, K1, C1, R1, arrivals=Trace((s, kind) for s in times),
                      downtime_s=500.0, **kw)
        check(want["phases"] == phases, f"{what}: the case itself: struck {want['phases']}")
        # an outage moved 5 s either way keeps every outcome
        for d in (-5, 5):
            moved = replay(S1, Y1, F1, K1, C1, R1, downtime_s=500.0, **kw,
                           arrivals=Trace((s + d, kind) for s in times))
            check(abs(moved["wall"] - want["wall"] - d) < 1e-6 and
                  moved["phases"] == want["phases"] and moved["saves"] == want["saves"],
                  f"{what}: the case itself: outages moved {d} s: {moved}")
        # the replay's arrivals against trainmc's, without the section
        sections = {"outage": {"outages": {"trace": csv, "downtime_s": 500}},
                    "spike": {"loss_spikes": {"trace": csv}},
                    "limit": {"time_limit": {"wall_hours": 1.5, "requeue_s": 500,
                                             "at_limit": "lose"}}}[kind]
        if kind == "limit":  # the next allocation's limit after the run's end
            check(want["wall"] < 5400 + 500 + 5400 - 5,
                  f"{what}: the case itself: a second limit at 11,300 s, wall {want['wall']}")
        plain = run(tmp, case_job(what, None, **sections))
        base = replay(S1, Y1, F1, K1, C1, R1, 0.0, downtime_s=500.0,
                      arrivals=Trace((s, kind) for s in times))
        if plain is not None:
            near(f"{what}, no slowdown section: wall", plain["split_days"]["wall"] * DAY,
                 base["wall"], base["wall"])
        doc = run(tmp, case_job(what, section, **sections))
        if doc is None:
            continue
        sp, ev, wall = split_s(doc), doc["events"], want["wall"]
        near(f"{what}: wall", sp["wall"], wall, wall)
        near(f"{what}: completion mean", doc["completion_days"]["mean"] * DAY, wall, wall)
        near(f"{what}: slowdown row", sp.get("slowdown", math.nan), want["slowdown"], wall)
        near(f"{what}: outage_downtime", sp["outage_downtime"], want["down_outage"], wall)
        near(f"{what}: requeue_wait", sp["requeue_wait"], want["down_limit"], wall)
        got = (ev["outages"], ev["loss_spikes"], ev["requeues"], ev.get("refreshes"))
        check(got == (want["outages"], want["spikes"], want["limits"], want["refreshes"]),
              f"{what}: (outages, spikes, requeues, refreshes) {got}; replay "
              f"{want['outages'], want['spikes'], want['limits'], want['refreshes']}")
        rows_add_up(what, sp)
        print(f"{what}: wall {sp['wall']:.3f} s (replay {wall:.3f}), outages {ev['outages']:g}, "
              f"spikes {ev['loss_spikes']:g}, requeues {ev['requeues']:g}, "
              f"refreshes {ev.get('refreshes')} (replay {want['refreshes']}, "
              f"{want['struck_refresh']} struck), slowdown {sp.get('slowdown', math.nan):.3f} s "
              f"(replay {want['slowdown']:.3f})")


# case 3
S3, Y3, F3, K3, C3, REST3, A3, RH3, RS3 = 300, 30.0, 2.0, 2, 40.0, 300.0, 0.5, 1.05, 120.0
CARDS3, CARD_MTBF_H3, N3 = 4, 8.0, 4000


def mean_se(xs):
    n = len(xs)
    mean = sum(xs) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in xs) / (n - 1) / n)


def against_replay(tmp):
    # where L falls after a restart from an even and from an odd step
    even, odd = (replay(S3 + 1000, Y3, F3, K3, C3, REST3, A3, r_s=RH3 * 3600, refresh_s=RS3,
                        done0=start, stop_at_refresh=True) for start in (0, 1))
    check(even["cuts"] == 1 and odd["after_save"] == 1 and
          min(even["margin"], odd["margin"]) > 5 and even["zero_step"] + odd["zero_step"] == 0,
          f"3: the case itself: even {even}, odd {odd}")
    print(f"3: L after a restart from an even step: a cut, {even['margin']:.1f} s from the "
          f"nearest decision; odd: after a commit, {odd['margin']:.1f} s")
    rng = random.Random(5)
    rate = CARDS3 / (CARD_MTBF_H3 * 3600)
    runs = [replay(S3, Y3, F3, K3, C3, REST3, A3, r_s=RH3 * 3600, refresh_s=RS3,
                   arrivals=Poisson(rate, rng)) for _ in range(N3)]
    check(sum(r["zero_step"] for r in runs) == 0, "3: the replay met a refresh with no step")
    x = experiment("3 poisson", S3, CARDS3, Y3, F3, 0.0, K3, C3, REST3,
                   {"per_hour": A3, "refresh_hours": RH3, "refresh_s": RS3},
                   replicas=N3, seed=7,
                   failures={"distribution": "exponential",
                             "per_card_mtbf_days": CARD_MTBF_H3 / 24})
    doc = run(tmp, x)
    if doc is None:
        return
    c = doc["completion_days"]
    mean, se = c["mean"] * DAY, c["se"] * DAY
    ind, ind_se = mean_se([r["wall"] for r in runs])
    both = math.hypot(se, ind_se)
    check(abs(mean - ind) < 4 * both, f"3: mean wall trainmc {mean:.1f} +- {se:.1f} s, replay "
                                      f"{ind:.1f} +- {ind_se:.1f} s "
                                      f"({abs(mean - ind) / both:.1f} SE)")
    print(f"3 Poisson: mean wall trainmc {mean:.1f} +- {se:.1f} s, replay {ind:.1f} +- "
          f"{ind_se:.1f} s ({(mean - ind) / both:+.2f} SE)")
    sp = split_s(doc)
    for what, got, key in (("refreshes", doc["events"].get("refreshes", math.nan), "refreshes"),
                           ("card failures", doc["events"]["card_failures"], "failures"),
                           ("slowdown row (s)", sp.get("slowdown", math.nan), "slowdown")):
        want, want_se = mean_se([r[key] for r in runs])
        both = math.sqrt(2) * want_se
        check(abs(got - want) < 4 * both, f"3: mean {what}: trainmc {got:.4f}, replay "
                                          f"{want:.4f} +- {want_se:.4f} "
                                          f"({abs(got - want) / both:.1f} SE)")
        print(f"3 Poisson: mean {what}: trainmc {got:.4f}, replay {want:.4f} +- {want_se:.4f} "
              f"({(got - want) / both:+.2f} SE)")
    struck = sum(r["struck_refresh"] for r in runs) / N3
    print(f"3 Poisson: struck refresh restarts a run {struck:.4f} (counted as refreshes); "
          f"rows {', '.join(f'{k} {v:.1f}' for k, v in sp.items() if v)} s")


def refusals(tmp):
    base = dict(steps=100, cards=4, step_s=10.0, comm_s=0.0, input_s=0.0, k=10, save_s=40.0,
                restore_s=100.0)
    cases = (
        ("elastic groups", {"per_hour": 0.1}, {"elastic": {"groups": 2}}, {}, "elastic"),
        ("a progress section", {"per_hour": 0.1},
         {"progress": {"elapsed_days": 0.001, "steps_done": 10, "committed_step": 10}}, {},
         "progress"),
        ("async saves", {"per_hour": 0.1, "refresh_hours": 1}, {},
         {"mode": "async", "write_s": 20}, "slowdown.refresh_hours"),
        ("a refresh shorter than the save", {"per_hour": 0.1, "refresh_hours": 0.01}, {}, {},
         "slowdown.refresh_hours"),
        ("a refresh as long as the save", {"per_hour": 0.1, "refresh_hours": 0.01}, {},
         {"save_s": 36.0}, "slowdown.refresh_hours"),
        ("per_hour missing", {"refresh_hours": 1}, {}, {}, "slowdown.per_hour"),
        ("per_hour negative", {"per_hour": -0.1}, {}, {}, "slowdown.per_hour"),
        ("max_extra 0", {"per_hour": 0.1, "max_extra": 0}, {}, {}, "slowdown.max_extra"),
        ("refresh_hours 0", {"per_hour": 0.1, "refresh_hours": 0}, {}, {},
         "slowdown.refresh_hours"),
        ("refresh_s -1", {"per_hour": 0.1, "refresh_hours": 1, "refresh_s": -1}, {}, {},
         "slowdown.refresh_s"),
    )
    for what, section, extra, ckpt, key in cases:
        x = experiment("refused", **base, slowdown=section, **extra)
        x["checkpoint"].update(ckpt)
        p, doc = run_json(BIN, tmp, x)
        check(p.returncode == 2 and doc is None and key in p.stderr and "slowdown" in p.stderr
              and "unknown key" not in p.stderr,
              f"refused, {what}: exit {p.returncode}, {p.stderr.strip()!r} (key {key})")
        print(f"refused, {what}: exit {p.returncode}: {p.stderr.strip()[:160]}")
        if section.get("per_hour", -1) >= 0 and (extra or ckpt):  # runs without the section
            del x["slowdown"]
            p, doc = run_json(BIN, tmp, x)
            check(p.returncode == 0 and doc is not None,
                  f"{what} without slowdown: exit {p.returncode}, {p.stderr.strip()!r}")
    x = experiment("async, no refresh", **base, slowdown={"per_hour": 0.1})
    x["checkpoint"].update({"mode": "async", "write_s": 20})
    p, doc = run_json(BIN, tmp, x)
    check(p.returncode == 0 and doc is not None,
          f"async saves without a refresh: exit {p.returncode}, {p.stderr.strip()!r}")


def zero_identity(tmp):
    docs = []
    for sd in (None, {"per_hour": 0}):
        x = experiment("per_hour 0", 2000, 8, 10.0, 0.5, 0.2, 20, 30.0, 200.0, sd,
                       replicas=300, seed=23,
                       failures={"distribution": "exponential", "per_card_mtbf_days": 1.0,
                                 "causes": [{"name": "hang", "share": 0.5,
                                             "detection_s": 600},
                                            {"name": "hardware", "share": 0.5,
                                             "detection_s": 60}]},
                       outages={"mean_interval_days": 0.5, "downtime_s": 1800},
                       loss_spikes={"mean_interval_days": 1.0},
                       pauses={"every_steps": 50, "duration_s": 20})
        x["jitter"] = {"distribution": "normal", "cv": 0.1}
        docs.append(run(tmp, x, "--set", "monte_carlo.mode=steps"))
    if None in docs:
        return
    a, b = docs
    ca, cb = a["completion_days"], b["completion_days"]
    # the new event and rows: 0 with the section, 0 or absent without
    ea, eb = dict(a["events"]), dict(b["events"])
    refreshes = (ea.pop("refreshes", 0), eb.pop("refreshes", None))
    check((ca["mean"], ca["sd"]) == (cb["mean"], cb["sd"]) and ea == eb and refreshes == (0, 0),
          f"per_hour 0: T {ca['mean']!r} sd {ca['sd']!r} events {a['events']} without; "
          f"{cb['mean']!r} sd {cb['sd']!r} events {b['events']} with")
    sa, sb = dict(a["split_days"]), dict(b["split_days"])
    new = tuple((sa.pop(k, 0), sb.pop(k, None)) for k in ("slowdown", "refresh_restarts"))
    check(new == ((0, 0), (0, 0)) and set(sa) == set(sb) and
          all(abs(sa[k] - sb[k]) <= 1e-12 * sa["wall"] for k in sa),
          f"per_hour 0: split {a['split_days']} without, {b['split_days']} with")
    print(f"per_hour 0: T mean {cb['mean']:.9f} d, sd {cb['sd']:.9f} d, failures "
          f"{eb['card_failures']}, outages {eb['outages']}, spikes {eb['loss_spikes']} "
          f"(without: {ca['mean']:.9f}, {ca['sd']:.9f})")


def open_case(tmp):
    """5: no step completes between the last commit and L."""
    kw = dict(a=0.3, r_s=0.55 * 3600)
    doc = run(tmp, case_job("5 open", {"per_hour": 0.3, "refresh_hours": 0.55}))
    readings = {z: replay(S1, Y1, F1, K1, C1, R1, zero_step=z, **kw) for z in ("save", "at_l")}
    check(all(r["zero_step"] == 1 for r in readings.values()), f"5: the case itself: {readings}")
    if doc is None:
        check(False, "5: the run failed")
        return
    want = readings["at_l"]
    got = (doc["split_days"]["wall"] * DAY, doc["events"].get("refreshes"),
           doc["split_days"]["lost_work"] * DAY)
    check(abs(got[0] - want["wall"]) < 1e-6 * want["wall"] and got[1] == want["refreshes"] and
          abs(got[2] - want["lost"]) < 1e-6 * want["wall"],
          f"5: a refresh with nothing to save: (wall, refreshes, lost) {got}, restart at L "
          f"gives ({want['wall']}, {want['refreshes']}, {want['lost']})")
    print(f"5: a refresh with no step since the commit: trainmc wall "
          f"{doc['split_days']['wall'] * DAY:.3f} s, refreshes {doc['events'].get('refreshes')}, "
          f"lost {doc['split_days']['lost_work'] * DAY:.3f} s; readings: "
          + "; ".join(f"{z}: wall {r['wall']:.3f} s, refreshes {r['refreshes']}, lost "
                      f"{r['lost']:.3f} s" for z, r in readings.items()))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        by_hand(tmp)
        jitter_identity(tmp)
        outages(tmp)
        against_replay(tmp)
        refusals(tmp)
        zero_identity(tmp)
        open_case(tmp)
    return finish("check_slowdown")


if __name__ == "__main__":
    sys.exit(main())
