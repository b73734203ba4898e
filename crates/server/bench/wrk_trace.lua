-- wrk -tN -cN (one connection a thread, so a response answers the
-- request its thread sent last): every request's send time (unix µs), its
-- latency (µs), the thread and the answer's X-Cache, one file a thread
-- (TRACE_DIR/conn-ID). Used by tail_trace.sh.
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } pm_timespec;
int clock_gettime(int clk, pm_timespec *tp);
]]
local ts = ffi.new("pm_timespec")
local function now_us()
  ffi.C.clock_gettime(0, ts)
  return tonumber(ts.tv_sec) * 1000000 + math.floor(tonumber(ts.tv_nsec) / 1000)
end
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  out = io.open(os.getenv("TRACE_DIR") .. "/conn-" .. id, "w")
end
function request()
  sent = now_us()
  return wrk.request()
end
local lines = 0
function response(status, headers, body)
  local cache = headers["x-cache"] or "-"
  out:write(sent, " ", now_us() - sent, " ", id, " ", cache, "\n")
  lines = lines + 1
  if lines % 256 == 0 then out:flush() end
end
