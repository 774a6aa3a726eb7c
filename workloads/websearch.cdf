# Web search workload: flow-size CDF of the production web-search cluster.
# Paper: M. Alizadeh, A. Greenberg, D. A. Maltz, J. Padhye, P. Patel, B. Prabhakar,
#        S. Sengupta, M. Sridharan, "Data Center TCP (DCTCP)", ACM SIGCOMM 2010.
# Numbers taken from: github.com/alibaba-edu/High-Precision-Congestion-Control,
#        traffic_gen/WebSearch_distribution.txt (commit 9cf8b9e8c8d04a3775e06c972c4699dcbce53c37),
#        the form used by the HPCC (SIGCOMM 2019) simulator.
# Units: sizes in bytes, cumulative probability in percent (0..100), as in the source; no conversion.
# Mean flow size (linear interpolation between points): 1711250 bytes (~1.71 MB).
# Format: flow_size_bytes cumulative_probability
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
