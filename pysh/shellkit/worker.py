"""The thread a sandbox runs on: its own event loop, restricted by the kernel at its start.

Every sandbox instance runs its scripts on a :class:`Worker`: one daemon thread
with one asyncio event loop. That gives two things:

* **isolation**: a session's busy loop runs on its own thread, so it never stalls
  another session's event loop (nor the embedder's): a call's deadline fires on
  time however busy the others are. Threads share the GIL: CPython hands it over
  every ``sys.getswitchinterval()`` (5 ms), so a busy neighbour costs another
  session latency in steps of that interval, not a stall;
* **the kernel floor**: the thread restricts itself with Landlock
  (:mod:`pysh.shellkit.landlock`) before it runs anything, to the rules the
  instance gives it, so library code on it that opens host paths itself cannot
  leave the sandbox's roots. Threads it starts inherit the restriction.

The hand-off is cheap on purpose: between calls the thread sleeps on a plain lock
(no event loop turns, no self-pipe), the caller puts the job in a deque and
releases that lock, and sleeps on a lock of its own (sync) or an event of its
event loop (async: asyncio or trio) that the worker sets when the job ends. A
job runs ``fn(*args)`` on the thread; jobs run one at a time, in order.

**The event loop only when needed.** When a job returns a coroutine, the worker
steps it itself: most shell code never suspends (``echo``, assignments,
arithmetic, a file read), and then the coroutine finishes in that one step, with
no event loop at all. Code that needs the loop (a pipeline's concurrent stages, a
background job, a deadline's cancel scope, waiting on another thread: anything
of anyio) first awaits :func:`ensure_loop`; the worker then moves the rest of the
coroutine onto the thread's asyncio loop, made the first time, and it runs there
to the end. Importing asyncio and anyio costs more CPU than a short script's
whole run, so ``pysh -c 'echo hi'`` imports neither. The interpreter is the same
either way: only where its coroutine is resumed differs.
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import types
from collections import deque
from collections.abc import Callable, Iterable

from pysh.shellkit import landlock

_CoroutineType = types.CoroutineType
_allocate_lock = threading.Lock
ABANDON_AFTER = 5.0  # seconds an interrupted caller waits for its job before leaving it
# A worker's stack, whatever the platform's thread default (musl's is 128 KiB): deep shell
# recursion must end in a clean limit error, never a crash of the whole process.
STACK_SIZE = 16 << 20
_stack_lock = threading.Lock()


class _Job:
    __slots__ = ("fn", "args", "value", "error", "notify", "task", "cancelled")

    def __init__(self, fn, args) -> None:
        self.fn = fn
        self.args = args
        self.value = None
        self.error: BaseException | None = None
        self.notify: Callable[[], object] | None = None
        self.task = None
        self.cancelled = False

    def result(self):
        if self.error is not None:
            err, self.error = self.error, None
            raise err
        return self.value


_STOP = _Job(None, ())
_by_thread: dict[int, Worker] = {}
_NEED_LOOP = object()  # what a coroutine hands its driver to be moved onto the loop


@types.coroutine
def _ask_for_loop():
    yield _NEED_LOOP


def loop_running() -> bool:
    """Whether an asyncio event loop runs on this thread (without importing asyncio)."""
    asyncio = sys.modules.get("asyncio")
    return asyncio is not None and asyncio._get_running_loop() is not None


async def ensure_loop() -> None:
    """Continue on an event loop: await it before anything that needs one (anyio).

    A no-op when an event loop runs already; in a job a worker drives without one,
    the job's coroutine moves onto the worker's loop here (see the module's text)."""
    if not loop_running():
        await _ask_for_loop()


class _Resume:
    """Awaiting it resumes a coroutine that :func:`ensure_loop` suspended, and relays
    each later suspension of it to the awaiting task (what ``await`` does)."""

    __slots__ = ("coro",)

    def __init__(self, coro) -> None:
        self.coro = coro

    def __await__(self):
        coro, value, error = self.coro, None, None
        while True:
            try:
                yielded = coro.send(value) if error is None else coro.throw(error)
            except StopIteration as e:
                return e.value
            try:
                value, error = (yield yielded), None
            except BaseException as e:  # noqa: BLE001 - cancellation, close: relayed to coro
                value, error = None, e


async def _resume(coro):
    return await _Resume(coro)


def current() -> Worker | None:
    """The worker whose thread is running this code (None on any other thread)."""
    return _by_thread.get(threading.get_ident())


class Worker:
    """One sandbox's thread and event loop. ``rules``: what the sandbox may reach; the
    thread restricts itself to them with Landlock unless ``restrict`` is False (then the
    cooperative core alone confines it: a test of that layer)."""

    def __init__(self, name: str = "pysh-worker", rules: Iterable[landlock.Rule] = (), *,
                 restrict: bool = True, import_dirs: Iterable[str] | None = None):
        self.name = name
        self.rules = list(rules)
        self.restrict = restrict
        # where code on the thread may import from (default: the Python installation)
        self.import_dirs = tuple(landlock.python_dirs() if import_dirs is None else import_dirs)
        self.floor = "not started"  # what the kernel floor is on this thread (see info())
        self.abi = 0
        self.loop = None  # the thread's asyncio loop, made the first time a job needs one
        self._jobs: deque[_Job] = deque()
        self._wake = _allocate_lock()
        self._wake.acquire()
        self._thread: threading.Thread | None = None
        self._ident = 0
        self._start_lock = _allocate_lock()
        self._closed = False

    # -- life --------------------------------------------------------------------------------
    def start(self) -> Worker:
        """Start the thread (idempotent) and wait until it is restricted and ready."""
        if self._thread is not None:
            return self
        with self._start_lock:
            if self._thread is not None:
                return self
            if self._closed:
                raise RuntimeError("the worker is closed")
            _Reaper.ensure()  # from an unrestricted thread: clean-up must not run restricted
            ready = _allocate_lock()
            ready.acquire()
            t = threading.Thread(target=self._main, args=(ready,), name=self.name, daemon=True)
            with _stack_lock:  # the interpreter's frame limit is sized for this stack
                previous = threading.stack_size(STACK_SIZE)
                try:
                    t.start()
                finally:
                    threading.stack_size(previous)
            ready.acquire()
            self._thread = t
        return self

    @property
    def started(self) -> bool:
        return self._thread is not None

    def close(self, timeout: float = ABANDON_AFTER) -> None:
        """Stop the thread after the jobs already queued (idempotent). From the thread
        itself (a finalizer the garbage collector ran there) it only asks it to stop."""
        if self._closed:
            return
        self._closed = True
        if self._thread is None:
            return
        self._submit(_STOP)
        if threading.get_ident() != self._ident:
            self._thread.join(timeout)

    def _main(self, ready) -> None:
        self._ident = threading.get_ident()
        _by_thread[self._ident] = self
        _confine_imports(self.import_dirs)
        try:
            if not self.restrict:
                self.floor = "off"
            else:
                try:
                    self.abi = landlock.restrict_thread(self.rules)
                    self.floor = f"landlock ABI {self.abi}"
                except landlock.LandlockError as e:
                    why = landlock.describe() if e.errno == errno.ENOSYS else e.strerror
                    self.floor = f"cooperative only ({why})"
        finally:
            ready.release()
        jobs, wake = self._jobs, self._wake
        try:
            while True:
                wake.acquire()
                while jobs:
                    job = jobs.popleft()
                    if job is _STOP:
                        return
                    self._run(job)
                job = None
        finally:
            _by_thread.pop(self._ident, None)
            loop = self.loop
            if loop is not None:
                try:
                    loop.run_until_complete(loop.shutdown_asyncgens())
                except Exception:  # noqa: BLE001 - closing must not raise
                    pass
                loop.close()

    def event_loop(self):
        """The thread's asyncio loop, made on first use (call it on the thread only)."""
        if self.loop is None:
            import asyncio

            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
        return self.loop

    def _run(self, job: _Job) -> None:
        try:
            if job.cancelled:
                raise _cancelled_error()
            r = job.fn(*job.args)
            if type(r) is _CoroutineType:
                r = self._drive(job, r)
            job.value = r
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            job.error = e
        finally:
            # nothing of the call stays referenced from this thread (finalizers must run)
            job.task = job.fn = job.args = None
            notify, job.notify = job.notify, None
            if notify is not None:
                try:
                    notify()
                except Exception:  # noqa: BLE001 - the caller's loop is gone: nobody waits
                    pass

    def _drive(self, job: _Job, coro):
        """Run a job's coroutine: by itself until it asks for the loop, then on the loop."""
        try:
            asked = coro.send(None)
        except StopIteration as e:
            return e.value
        if asked is not _NEED_LOOP:  # it awaited a loop's object without ensure_loop()
            coro.close()
            raise RuntimeError("a coroutine needs the event loop: await ensure_loop() first")
        loop = self.event_loop()
        job.task = task = loop.create_task(_resume(coro))
        if job.cancelled:
            task.cancel()
        return loop.run_until_complete(task)

    def _submit(self, job: _Job) -> None:
        if self._closed and job is not _STOP:
            raise RuntimeError("the worker is closed")
        self._jobs.append(job)
        try:
            self._wake.release()
        except RuntimeError:  # a wake-up is pending already
            pass

    def _abort(self, job: _Job, interrupt) -> None:
        """The caller gave up: stop the job (at its next await, or its next budget check)."""
        job.cancelled = True
        if interrupt is not None:
            interrupt()
        loop = self.loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(_cancel_task, job)
            except RuntimeError:  # the loop is closed
                pass

    # -- calls -------------------------------------------------------------------------------
    def call(self, fn, *args, interrupt: Callable[[], object] | None = None):
        """Run ``fn(*args)`` on the thread (a coroutine it returns runs on the thread's
        loop) and return its result or raise its exception. If the calling thread is
        interrupted (KeyboardInterrupt, SystemExit from a signal handler), the job is
        cancelled, ``interrupt()`` is called, and the call waits a bounded time for it."""
        if self._thread is None:
            self.start()
        if threading.get_ident() == self._ident:  # already on the thread (a nested call)
            raise RuntimeError("a worker cannot wait for itself")
        job = _Job(fn, args)
        done = _allocate_lock()
        done.acquire()
        job.notify = done.release
        self._submit(job)
        try:
            done.acquire()
        except BaseException:
            self._abort(job, interrupt)
            done.acquire(timeout=ABANDON_AFTER)
            raise
        return job.result()

    async def acall(self, fn, *args, interrupt: Callable[[], object] | None = None):
        """:meth:`call` for async code: the caller's event loop (asyncio or trio) keeps
        running while the job runs. Cancelling the caller cancels the job and waits for it."""
        import anyio

        if self._thread is None:
            self.start()
        event = anyio.Event()
        job = _Job(fn, args)
        job.notify = _soon_in_caller_loop(event.set)
        self._submit(job)
        try:
            await event.wait()
        except BaseException:
            self._abort(job, interrupt)
            with anyio.move_on_after(ABANDON_AFTER, shield=True):
                await event.wait()
            raise
        return job.result()


def _cancel_task(job: _Job) -> None:
    task = job.task
    if task is not None and not task.done():
        task.cancel()


def _cancelled_error() -> BaseException:
    import asyncio

    return asyncio.CancelledError()


def _soon_in_caller_loop(fn) -> Callable[[], object]:
    """A thread-safe ``fn()`` in the calling event loop's thread, for asyncio and trio."""
    import asyncio

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        import trio

        token = trio.lowlevel.current_trio_token()
        return lambda: token.run_sync_soon(fn)
    return lambda: loop.call_soon_threadsafe(fn)


# -- imports on a worker thread ------------------------------------------------------------
_import_roots = threading.local()
_entry_real: dict[str, str] = {}


class _ConfinedPathFinder:
    """``sys.meta_path``'s PathFinder, looking only in the Python installation on worker threads.

    A command module is imported the first time it runs, on the worker, and the
    import walks ``sys.path``. That holds the embedder's directories: its cwd or its
    script's directory, which may be the very workspace a script writes to (then a
    planted ``sqlite3.py`` would run as host code). On a worker thread this finder
    searches only the entries inside the Python installation (and the packages of
    registered commands, through their ``__path__``); other threads see PathFinder
    unchanged. It also keeps the kernel floor from poisoning the process-wide
    directory caches: a listing Landlock refused would be cached as empty.
    """

    def __init__(self, inner) -> None:
        self.inner = inner

    def find_spec(self, name, path=None, target=None):
        roots = getattr(_import_roots, "roots", None)
        if roots is not None:
            path = [e for e in (sys.path if path is None else path) if _importable(e, roots)]
        return self.inner.find_spec(name, path, target)

    def __getattr__(self, attr):
        return getattr(self.inner, attr)


def _importable(entry, roots: tuple[str, ...]) -> bool:
    if not isinstance(entry, str) or not entry.startswith("/"):
        return False  # '' is the host process's cwd
    real = _entry_real.get(entry)
    if real is None:
        real = _entry_real[entry] = os.path.realpath(entry)
    return any(real == r or real.startswith(r + "/") for r in roots)


_finder_lock = _allocate_lock()


def _confine_imports(roots: tuple[str, ...]) -> None:
    """Confine this thread's imports to ``roots`` (installs the finder once per process)."""
    from importlib.machinery import PathFinder

    with _finder_lock:
        meta = sys.meta_path
        if not any(isinstance(f, _ConfinedPathFinder) for f in meta):
            for i, f in enumerate(meta):
                if f is PathFinder:
                    meta[i] = _ConfinedPathFinder(PathFinder)
                    break
    _import_roots.roots = tuple(os.path.realpath(r) for r in roots)


# -- clean-up that must not run restricted ---------------------------------------------------
class _Reaper:
    """An unrestricted thread for host clean-up asked for on a worker thread.

    The garbage collector runs finalizers on whatever thread it interrupts, often a
    worker's: removing an instance's temp dir needs rights on the system temp root
    that no worker holds. Started by the first worker, from the (unrestricted)
    thread that starts it; anything left is run at interpreter exit.
    """

    _lock = _allocate_lock()
    _jobs: deque = deque()
    _wake = _allocate_lock()
    _thread: threading.Thread | None = None

    @classmethod
    def ensure(cls) -> None:
        if cls._thread is not None or landlock.thread_is_restricted() or current() is not None:
            return
        with cls._lock:
            if cls._thread is None:
                import atexit

                cls._wake.acquire()
                t = threading.Thread(target=cls._main, name="pysh-reaper", daemon=True)
                t.start()
                cls._thread = t
                atexit.register(cls.drain)

    @classmethod
    def _main(cls) -> None:
        while True:
            cls._wake.acquire()
            cls.drain()

    @classmethod
    def drain(cls) -> None:
        jobs = cls._jobs
        while jobs:
            try:
                fn, args = jobs.popleft()
            except IndexError:
                return
            try:
                fn(*args)
            except Exception:  # noqa: BLE001 - clean-up is best effort
                pass

    @classmethod
    def submit(cls, fn, args) -> None:
        cls._jobs.append((fn, args))
        try:
            cls._wake.release()
        except RuntimeError:
            pass


def unrestricted(fn, *args) -> None:
    """Run ``fn(*args)`` now, or, on a worker thread, soon on an unrestricted one. Only for
    host work the script does not steer (clean-up, loading a runtime from the host
    user's cache): whatever runs there is outside the kernel floor."""
    if (current() is None and not landlock.thread_is_restricted()) or _Reaper._thread is None:
        fn(*args)
    else:
        _Reaper.submit(fn, args)
