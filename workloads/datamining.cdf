# Data mining workload: flow-size CDF of the data-mining cluster measured in the VL2 paper.
# Paper: A. Greenberg, J. R. Hamilton, N. Jain, S. Kandula, C. Kim, P. Lahiri, D. A. Maltz,
#        P. Patel, S. Sengupta, "VL2: A Scalable and Flexible Data Center Network",
#        ACM SIGCOMM 2009.
# Numbers taken from: github.com/TritonNetworking/opera-sim, Figure1_traffic/datamining.csv
#        (commit ed471fed5c2f561387c0cf10a1d96d5c670e746a; Opera, NSDI 2020).
# Units: sizes in bytes as in the source; the source gives probability as a fraction (0..1),
#        multiplied here by 100 to give percent. The source point 100001 bytes is kept as it is.
# Mean flow size (linear interpolation between points): 5036535.175 bytes (~5.04 MB).
# Note: other reproductions of this curve differ in the tail, e.g.
#        datacenter/empirical-traffic-gen VL2_CDF (13 points, 0..1e9 B) gives a mean of ~12.66 MB.
# Format: flow_size_bytes cumulative_probability
100 0
180 8.5
250 14
560 33
900 47
1100 55
1870 65
3160 70
10000 80
100001 87.4
400000 90
1850000 95
10000000 97
30000000 98
100000000 99
250000000 99.5
1000000000 100
