-- wrk script: at the end of a run, write the exact results as ONE JSON object
-- to the file named by $HTTPLAB_WRK_JSON (script arguments never reach done(),
-- which runs in wrk's main Lua state, so the path comes from the environment).
-- Unset variable: write nothing. Durations and latencies are microseconds.
--
--   HTTPLAB_WRK_JSON=/tmp/run.json wrk -t2 -c10 -d1s -s done.lua http://127.0.0.1:18081/
--
-- Beside wrk's summary it writes what merging several load generators' runs needs:
--   ended_at_us          Unix time (µs) when done() ran, a few ms after the load stopped;
--                        the run started at ended_at_us - duration_us. null if unreadable.
--   latency_histogram    [[value_us, count], ...] ascending: wrk's whole latency
--                        histogram (latency_histogram_exact true), or, when reading it
--                        would take too long, a quantile grid (exact false) whose
--                        percentiles are off by at most latency_histogram_rank_error_pct
--                        percentile points.
--   latency_samples      the histogram's total: wrk's coordinated-omission correction
--                        adds samples, so it can exceed requests.
--   latency_histogram_ms how long done() took to build the histogram.
--
-- HTTPLAB_HISTOGRAM_BUDGET (default 8e9) bounds the exact histogram's cost, counted as
-- distinct values x (max - min) in µs: wrk's latency(i) scans its buckets from min on
-- every call, 0.2-0.3 s per 1e9 measured on a 2-core VM, so 8e9 is about 2 s of done().
-- Above it, the quantile grid (at most 1,181 percentile calls, under 0.1 s measured) is
-- written instead; 0 always writes the grid.

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

-- Microseconds since the Unix epoch, or nil: wrk's LuaJIT has no sub-second clock, so
-- coreutils' date reads it (a date without %N prints the format back: not a number).
local function unix_time_us()
   local pipe = io.popen("date +%s%6N")
   if pipe == nil then return nil end
   local text = pipe:read("*l")
   pipe:close()
   return tonumber(text)
end

local DEFAULT_HISTOGRAM_BUDGET = 8e9

local function histogram_budget()
   return tonumber(os.getenv("HTTPLAB_HISTOGRAM_BUDGET") or "") or DEFAULT_HISTOGRAM_BUDGET
end

-- The quantile grid, in percent: 0.1 steps to 99, 0.01 to 99.9, 0.001 to 100.
local GRID_RANK_ERROR_PCT = 0.1
local function quantile_grid()
   local grid = {}
   for k = 0, 990 do grid[#grid + 1] = k / 10 end
   for k = 9901, 9990 do grid[#grid + 1] = k / 100 end
   for k = 99901, 100000 do grid[#grid + 1] = k / 1000 end
   return grid
end

local function exact_histogram(latency, distinct)
   local buckets, total = {}, 0
   for i = 1, distinct do
      local value, count = latency(i)
      buckets[i] = { value, count }
      total = total + count
   end
   return buckets, total
end

-- wrk's Lua API has no sample count. percentile(p) leaves the smallest value once its
-- rank, round(p/100 * count + 0.5), passes that value's own count c: at p = 100 c / count.
-- Bisecting for that p costs short scans only (each stops just past the minimum).
local function sample_count(latency)
   local minimum, at_minimum = latency(1)
   local below, above = 0, 100
   for _ = 1, 200 do
      local middle = (below + above) / 2
      if middle <= below or middle >= above then break end
      if latency:percentile(middle) == minimum then below = middle else above = middle end
   end
   return math.floor(100 * at_minimum / above + 0.5)
end

-- Each grid step's share of the samples goes to the value at its upper percentile; the
-- shares are differences of rounded ranks, so they sum to the count exactly.
local function grid_histogram(latency, count)
   local buckets, previous_rank = {}, 0
   for _, p in ipairs(quantile_grid()) do
      local rank = math.floor(count * p / 100 + 0.5)
      local share = rank - previous_rank
      previous_rank = rank
      if share > 0 then
         -- percentile(100) returns 0 in wrk 4.x: the maximum is read from max.
         local value = p == 100 and latency.max or latency:percentile(p)
         local last = buckets[#buckets]
         if last ~= nil and last[1] == value then
            last[2] = last[2] + share
         else
            buckets[#buckets + 1] = { value, share }
         end
      end
   end
   return buckets, count
end

local function buckets_json(buckets)
   local parts = {}
   for i, bucket in ipairs(buckets) do
      parts[i] = "[" .. number(bucket[1]) .. ", " .. number(bucket[2]) .. "]"
   end
   return "[" .. table.concat(parts, ", ") .. "]"
end

-- The histogram members of the JSON object, in order.
local function histogram_members(latency)
   local started = os.clock()
   local distinct, buckets, total, rank_error = #latency, {}, 0, 0
   if distinct > 0 and distinct * (latency.max - latency.min) < histogram_budget() then
      buckets, total = exact_histogram(latency, distinct)
   elseif distinct > 0 then
      buckets, total = grid_histogram(latency, sample_count(latency))
      rank_error = GRID_RANK_ERROR_PCT
   end
   local text = buckets_json(buckets)
   return {
      { "latency_histogram",        text },
      { "latency_histogram_exact",  rank_error == 0 and "true" or "false" },
      { "latency_histogram_rank_error_pct", number(rank_error) },
      { "latency_samples",          number(total) },
      { "latency_histogram_ms",     number(math.floor((os.clock() - started) * 1000 + 0.5)) },
   }
end

-- A failing part of done() is written as null, with the reason on stderr, never raised.
local function guarded(what, compute, fallback)
   local ok, result = pcall(compute)
   if ok then return result end
   io.stderr:write("done.lua: cannot read ", what, ": ", tostring(result), "\n")
   return fallback
end

local HISTOGRAM_UNKNOWN = {
   { "latency_histogram", "null" }, { "latency_histogram_exact", "null" },
   { "latency_histogram_rank_error_pct", "null" }, { "latency_samples", "null" },
   { "latency_histogram_ms", "null" },
}

local function target_url()
   local authority = wrk.host
   if wrk.port then authority = authority .. ":" .. wrk.port end
   return wrk.scheme .. "://" .. authority .. wrk.path
end

local function summary_members(summary, latency, requests, ended_at_us)
   local members = {
      { "duration_us", number(summary.duration) },
      { "ended_at_us", number(ended_at_us) },
      { "requests",    number(summary.requests) },
      { "bytes",       number(summary.bytes) },
      { "errors",      errors_object(summary.errors) },
      { "latency",     latency_object(latency) },
      { "thread_requests_per_sec", rate_object(requests) },
      { "threads",     number(thread_count) },
      { "url",         string_literal(target_url()) },
   }
   local histogram = guarded("the latency histogram", function() return histogram_members(latency) end,
                             HISTOGRAM_UNKNOWN)
   for _, member in ipairs(histogram) do members[#members + 1] = member end
   return members
end

local function write_json(path, summary, latency, requests)
   -- First, before anything slow: the end of the run as the wall clock saw it.
   local ended_at_us = guarded("the time (date +%s%6N)", unix_time_us, nil)
   local json = object(summary_members(summary, latency, requests, ended_at_us))

   local file, problem = io.open(path, "w")
   if file == nil then
      io.stderr:write("done.lua: cannot write HTTPLAB_WRK_JSON: ", problem, "\n")
      return
   end
   file:write(json, "\n")
   file:close()
end

function done(summary, latency, requests)
   local path = os.getenv("HTTPLAB_WRK_JSON")
   if path == nil or path == "" then return end
   -- An error raised in done() would abort wrk after the report was printed:
   -- say what went wrong and let wrk exit normally.
   local ok, problem = pcall(write_json, path, summary, latency, requests)
   if not ok then
      io.stderr:write("done.lua: cannot write HTTPLAB_WRK_JSON: ", tostring(problem), "\n")
   end
end
