-- wrk -s benchmarks/pipeline.lua URL: each write carries DEPTH requests (default 16), as a
-- pipelining client sends them; wrk counts every response.
local depth = tonumber(os.getenv("DEPTH") or "16")

init = function(args)
    local requests = {}
    for i = 1, depth do
        requests[i] = wrk.format(nil, nil)
    end
    batch = table.concat(requests)
end

request = function()
    return batch
end
