-- wrk script: at the end of a run, write the exact results as ONE JSON object
-- to the file named by $HTTPLAB_WRK_JSON (script arguments never reach done(),
-- which runs in wrk's main Lua state, so the path comes from the environment).
-- Unset variable: write nothing. Durations and latencies are microseconds.
--
--   HTTPLAB_WRK_JSON=/tmp/run.json wrk -t2 -c10 -d1s -s done.lua http://127.0.0.1:18081/

-- setup() runs once per thread in the same Lua state as done(): counting the
-- calls is the only way done() can know the thread count.
local thread_count = 0

function setup(thread)
   thread_count = thread_count + 1
end

-- JSON has no NaN or Infinity: an undefined figure is written as null.
local function number(value)
   if value == nil or value ~= value or value == math.huge or value == -math.huge then
      return "null"
   end
   if value == math.floor(value) and math.abs(value) < 2^53 then
      return string.format("%.0f", value)
   end
   return string.format("%.17g", value)
end

local function string_literal(text)
   local escaped = text:gsub('[%c"\\]', function(c)
      return string.format("\\u%04x", c:byte())
   end)
   return '"' .. escaped .. '"'
end

local function object(pairs_in_order)
   local members = {}
   for _, pair in ipairs(pairs_in_order) do
      members[#members + 1] = string_literal(pair[1]) .. ": " .. pair[2]
   end
   return "{" .. table.concat(members, ", ") .. "}"
end

-- An empty wrk stats object reports min = UINT64_MAX and mean = 0: with no
-- samples every figure is undefined, so null.
local function sampled(stats, read)
   if #stats == 0 then return "null" end
   return number(read(stats))
end

local function latency_object(latency)
   local function percentile(p)
      return { "p" .. tostring(p):gsub("%.", "_"), sampled(latency, function(s) return s:percentile(p) end) }
   end
   return object({
      { "min",   sampled(latency, function(s) return s.min end) },
      { "mean",  sampled(latency, function(s) return s.mean end) },
      { "stdev", sampled(latency, function(s) return s.stdev end) },
      -- percentile(100) returns 0 in wrk 4.x: the maximum is read from max.
      { "max",   sampled(latency, function(s) return s.max end) },
      percentile(50), percentile(75), percentile(90), percentile(99), percentile(99.9),
   })
end

local function rate_object(requests)
   return object({
      { "min",   sampled(requests, function(s) return s.min end) },
      { "mean",  sampled(requests, function(s) return s.mean end) },
      { "stdev", sampled(requests, function(s) return s.stdev end) },
      { "max",   sampled(requests, function(s) return s.max end) },
   })
end

local function errors_object(errors)
   return object({
      { "connect", number(errors.connect) },
      { "read",    number(errors.read) },
      { "write",   number(errors.write) },
      { "status",  number(errors.status) },
      { "timeout", number(errors.timeout) },
   })
end

local function target_url()
   local authority = wrk.host
   if wrk.port then authority = authority .. ":" .. wrk.port end
   return wrk.scheme .. "://" .. authority .. wrk.path
end

function done(summary, latency, requests)
   local path = os.getenv("HTTPLAB_WRK_JSON")
   if path == nil or path == "" then return end

   local json = object({
      { "duration_us", number(summary.duration) },
      { "requests",    number(summary.requests) },
      { "bytes",       number(summary.bytes) },
      { "errors",      errors_object(summary.errors) },
      { "latency",     latency_object(latency) },
      { "thread_requests_per_sec", rate_object(requests) },
      { "threads",     number(thread_count) },
      { "url",         string_literal(target_url()) },
   })

   -- An error raised in done() would abort wrk after the report was printed:
   -- say what went wrong and let wrk exit normally.
   local file, problem = io.open(path, "w")
   if file == nil then
      io.stderr:write("done.lua: cannot write HTTPLAB_WRK_JSON: ", problem, "\n")
      return
   end
   file:write(json, "\n")
   file:close()
end
