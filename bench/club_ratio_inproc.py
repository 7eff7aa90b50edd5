"""The sala-vs-game-page ratio without a server (Flask test client, 25 interleaved rounds, 12 and 40 tables),
then a cProfile of 5 sala changed polls at 40 tables: where the sala's time goes.

    python bench/club_ratio_inproc.py
"""
import sys, os, re, time, tempfile, statistics, cProfile, pstats
sys.path.insert(0, "bench")
from club_demo import bench_doc, write_db
from companion.web.app import create_app
for N in (12, 40):
    d = tempfile.mkdtemp(); db = os.path.join(d, "c.db")
    night = write_db(db, bench_doc(N))
    app = create_app({"DATABASE": db, "TESTING": True})
    c = app.test_client(); r = app.test_client()
    link = f"/s/{night['tables']['3']}"
    page = c.get(f"{link}/mus/2").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    H = {"HX-Request": "true"}
    sala, game = [], []
    for i in range(25):
        c.post(f"{link}/mus/2/act", data={"csrf": csrf, "move": "tally", "tally": '[["A", 1]]', "k": f"a{i}"})
        t = time.perf_counter(); rs = r.get(f"/s/{night['view']}/sala?since=0", headers=H); sala.append(time.perf_counter() - t)
        c.post(f"{link}/mus/2/act", data={"csrf": csrf, "move": "tally", "tally": '[["A", 1]]', "k": f"b{i}"})
        t = time.perf_counter(); rg = r.get(f"/s/{night['view']}/mus/2?since=0", headers=H); game.append(time.perf_counter() - t)
    assert rs.status_code == 200 and rg.status_code == 200, (rs.status_code, rg.status_code)
    print(N, "sala med", round(statistics.median(sala)*1000,1), "min", round(min(sala)*1000,1), "| game med", round(statistics.median(game)*1000,1), "min", round(min(game)*1000,1),
          "| ratio med", round(statistics.median([s/g for s,g in zip(sala,game)]),2), "bytes", len(rs.data), len(rg.data), os.getloadavg()[0])
    if N == 40:
        c.post(f"{link}/mus/2/act", data={"csrf": csrf, "move": "tally", "tally": '[["A", 1]]', "k": "p"})
        pr = cProfile.Profile(); pr.enable()
        for i in range(5):
            c.post(f"{link}/mus/2/act", data={"csrf": csrf, "move": "tally", "tally": '[["A", 1]]', "k": f"p{i}"})
            r.get(f"/s/{night['view']}/sala?since=0", headers=H)
        pr.disable(); pstats.Stats(pr).sort_stats("cumulative").print_stats(25)
