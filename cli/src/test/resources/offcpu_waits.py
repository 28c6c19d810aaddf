# A workload whose waits are known: each runs in a thread of its own, timed by the workload itself
# (monotonic clock around the blocking call) and printed as "KIND TID SECONDS", for
# RecordOffCpuTest to compare with the off-CPU time jperf record --off-cpu measured for that thread.
import os
import threading
import time

def timed(kind, wait):
    def run():
        t = time.monotonic()
        wait()
        print(kind, threading.get_native_id(), time.monotonic() - t, flush=True)
    th = threading.Thread(target=run)
    th.start()
    th.join()

# sleep: clock_nanosleep
timed("sleep", lambda: time.sleep(0.3))

# a pipe: read(2) until a child process writes (the child is another process: not watched)
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    time.sleep(0.25)
    os.write(w, b"x")
    os._exit(0)
os.close(w)
timed("pipe", lambda: os.read(r, 1))
os.waitpid(pid, 0)

# a futex: joining a thread that sleeps
def join_sleeper():
    sleeper = threading.Thread(target=time.sleep, args=(0.2,))
    sleeper.start()
    sleeper.join()
timed("futex", join_sleeper)
